{
  "targets": [
    {
      "target_name": "faiss-node",
      "sources": ["faiss.cc"],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
      "cflags_cc": ["-std=c++17", "-fexceptions", "-frtti", "-fopenmp", "-include", "<(module_root_dir)/faiss-compat.h"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti"],
      "defines": ["NAPI_CPP_EXCEPTIONS"],
      "libraries": ["-lfaiss", "-lopenblas", "-fopenmp"]
    }
  ]
}
