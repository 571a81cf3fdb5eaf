# The address a login came from, for the per-address limits of the login check (issue 43's known limit).
# JupyterHub listens on loopback, behind the kit's proxy (configurable-http-proxy, started by `npm run hub`),
# which appends the client's address to X-Forwarded-For. But every participant's kernel runs on this machine
# and can reach JupyterHub's port directly, with any X-Forwarded-For it likes (another participant's address
# to use up their wrong tries, a fresh one for each guess). So the header counts only on a connection whose
# other end belongs to the hub's own user (the proxy: root, when participants have accounts of their own);
# the kernel's `/proc/net/tcp` entry names the uid of each local TCP socket. Anything else counts as the
# address it really comes from. A secret header from the proxy would not do: the proxy adds its headers to
# every request, also to those it forwards to the participants' own servers.
import os
import socket


def _proc_net_address(host, port):
    """`host:port` as /proc/net/tcp{,6} writes it: the address's 32-bit words in host order, hex."""
    packed = socket.inet_pton(socket.AF_INET6 if ":" in host else socket.AF_INET, host)
    words = b"".join(packed[i : i + 4][::-1] for i in range(0, len(packed), 4))
    return f"{words.hex().upper()}:{port:04X}"


def connection_uid(local, peer):
    """The uid that owns the peer's end of a TCP connection within this machine, or None (not found)."""
    try:
        peer_end, our_end = _proc_net_address(peer[0], peer[1]), _proc_net_address(local[0], local[1])
    except (OSError, ValueError, IndexError, TypeError):
        return None
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table, encoding="ascii") as f:
                for line in f:
                    fields = line.split()
                    if len(fields) > 7 and fields[1] == peer_end and fields[2] == our_end:
                        return int(fields[7])
        except (OSError, ValueError):
            continue
    return None


def client_address(request):
    """The last X-Forwarded-For entry when the kit's proxy sent the request, else the connection's own
    address (tornado's remote_ip would believe a client's X-Real-Ip or X-Forwarded-For)."""
    try:
        peer = request.connection.context.address
        local = request.connection.stream.socket.getsockname()
    except (AttributeError, OSError):
        return "?"
    forwarded = request.headers.get("X-Forwarded-For", "").split(",")[-1].strip()
    if forwarded and connection_uid(local, peer) == os.geteuid():
        return forwarded
    return str(peer[0]) if isinstance(peer, tuple) and peer else "?"
