"""`make loadtest`: a local topology on loopback (several match-service replicas, Redis, Celery
workers, matchmaking when present) driven by simulated players; it reports throughput, latency
percentiles per RPC, errors by code and whether any action was lost, and stops by itself. The
players' behaviour is scenario.py, which the cluster's locust Job (deploy/load/locustfile.py) drives too."""
