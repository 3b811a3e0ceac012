#!/usr/bin/env python3
"""Two clients behind the shipped nginx get limits of their own.

Client A (from 127.0.0.2) floods: it creates tables through nginx until it
is refused (HTTP 429) and then some, and holds watches (server-sent
events) of its seats until it is refused. Client B (from 127.0.0.3), after
it, must not be refused anything: its tables are created and its seats'
watches each bring their first update. Both speak HTTP/1.1 JSON to nginx's
browser port; the servers behind trust exactly nginx's address, so each
counts as itself and not as nginx.

    scripts/proxy-fairness.py HOST:PORT [--watches N]
"""

import argparse
import http.client
import json
import sys

CREATE = json.dumps(
    {"variant": "muggins", "players": 2, "seats": [{"person": {}}, {"person": {}}]}
)


def connection(address, client):
    host, port = address.rsplit(":", 1)
    return http.client.HTTPConnection(host, int(port), timeout=10, source_address=(client, 0))


def create(address, client):
    """CreateTable from `client`: the HTTP status, and the seats' links."""
    conn = connection(address, client)
    conn.request("POST", "/v1/CreateTable", CREATE, {"content-type": "application/json"})
    answer = conn.getresponse()
    body = answer.read()
    conn.close()
    links = []
    if answer.status == 200:
        links = [seat["link"] for seat in json.loads(body)["seatLinks"]]
    return answer.status, links


def watch(address, client, link):
    """A watch of `link` from `client` by server-sent events, held open:
    the connection once its first update came, else the HTTP status."""
    conn = connection(address, client)
    conn.request(
        "POST", "/v1/Watch", json.dumps({"link": link}), {"content-type": "application/json"}
    )
    answer = conn.getresponse()
    if answer.status != 200:
        answer.read()
        conn.close()
        return answer.status
    line = answer.fp.readline()
    while line and not line.startswith(b"data: "):
        line = answer.fp.readline()
    if not line:
        conn.close()
        return 0
    return conn


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("address")
    parser.add_argument("--watches", type=int, default=200)
    args = parser.parse_args()
    flooder, other = "127.0.0.2", "127.0.0.3"
    statuses = {}
    links = []
    for _ in range(60):
        status, made = create(args.address, flooder)
        statuses[status] = statuses.get(status, 0) + 1
        links += made
    print(f"flooding client: CreateTable answered {statuses}")
    if statuses.get(429, 0) == 0:
        sys.exit("the flooding client was never refused: the limits count someone else")
    held, refused = [], 0
    # (With --watches 0 the servers keep tables apart, each its own, and
    # only creations are counted.)
    for n in range(args.watches):
        got = watch(args.address, flooder, links[n % len(links)])
        if isinstance(got, http.client.HTTPConnection):
            held.append(got)
        else:
            refused += 1
    print(f"flooding client: {len(held)} watches held, {refused} refused")
    mine = []
    for _ in range(3):
        status, made = create(args.address, other)
        if status != 200:
            sys.exit(f"the other client's CreateTable was answered {status}")
        mine += made
    watched = 0
    for link in mine if args.watches else []:
        got = watch(args.address, other, link)
        if not isinstance(got, http.client.HTTPConnection):
            sys.exit(f"the other client's watch was answered {got}")
        watched += 1
        held.append(got)
    print(f"other client: 3 tables created, {watched} seats watching, nothing refused")
    for conn in held:
        conn.close()


if __name__ == "__main__":
    main()
