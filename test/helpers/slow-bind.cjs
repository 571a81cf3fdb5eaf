// Fault injection for a kernel test (loaded with node --require): every zeromq bind reaches JavaScript one
// second late, as on a busy machine where the bind's worker thread waits for a core. Meanwhile the socket is
// already bound (clients connect and send), but receive refuses, as zeromq's own does in that window.
const zmq = require("zeromq");

const binding = new WeakSet();

// The native methods cannot be redefined; the socket classes tslab uses get their own.
for (const Type of [zmq.Router, zmq.Reply, zmq.Publisher]) {
  const { bind, receive } = zmq.Socket.prototype;
  Object.defineProperty(Type.prototype, "bind", {
    value: async function (address) {
      binding.add(this);
      try {
        await bind.call(this, address);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      } finally {
        binding.delete(this);
      }
    },
  });
  Object.defineProperty(Type.prototype, "receive", {
    value: function () {
      if (binding.has(this)) {
        throw Object.assign(new Error("Socket is blocked by a bind or unbind operation"), { code: "EBUSY" });
      }
      return receive.call(this);
    },
  });
}
