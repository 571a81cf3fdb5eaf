// faiss-node 0.5 expects faiss::idx_t (faiss >= 1.7.4); Debian 12 ships faiss 1.7.3,
// where the type lives in faiss::Index. Force-included by binding.gyp.
#pragma once
#include <faiss/Index.h>
#if !defined(FAISS_VERSION_MINOR) || (FAISS_VERSION_MAJOR == 1 && FAISS_VERSION_MINOR == 7 && FAISS_VERSION_PATCH < 4)
namespace faiss { using idx_t = faiss::Index::idx_t; }
#endif
