"""The web port: the public services (Auth, Match, Matchmaking, Rules) over the Connect protocol,
gRPC-Web and gRPC on one HTTP port, beside the web client's files. The same servicer objects and
the same ServiceInterceptor as the gRPC port answer every call (services/web/bridge.py)."""
