#!/usr/bin/env python3
"""The shipped deployment trusts exactly its proxy.

deploy/compose.yml's replicas must trust (PIPS_TRUSTED_PROXIES) exactly
the fixed address it gives nginx, within the network it defines; and
deploy/nginx.conf, the edge, must set X-Forwarded-For to the address the
client connected from on every server it proxies (never append to what a
client wrote), so that each visitor counts as itself.

    scripts/deploy-check.py
"""

import ipaddress
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
compose = (root / "deploy/compose.yml").read_text()
nginx = (root / "deploy/nginx.conf").read_text()

trusted = re.findall(r'PIPS_TRUSTED_PROXIES:\s*"([^"]*)"', compose)
addresses = re.findall(r"ipv4_address:\s*([0-9.]+)", compose)
subnets = re.findall(r"subnet:\s*([0-9./]+)", compose)
faults = []
if len(trusted) != 1 or len(addresses) != 1 or len(subnets) != 1:
    faults.append(
        f"compose.yml: one trusted list, one fixed address, one subnet expected; "
        f"found {trusted}, {addresses}, {subnets}"
    )
else:
    if trusted[0] != addresses[0]:
        faults.append(f"the replicas trust {trusted[0]!r}, nginx's address is {addresses[0]!r}")
    if ipaddress.ip_address(addresses[0]) not in ipaddress.ip_network(subnets[0]):
        faults.append(f"nginx's address {addresses[0]} is outside the network {subnets[0]}")
servers = nginx.count("\n    server {")
for directive in ("grpc_set_header", "proxy_set_header"):
    if f"{directive} X-Forwarded-For $remote_addr;" not in nginx:
        faults.append(f"nginx.conf: no `{directive} X-Forwarded-For $remote_addr;`")
if "proxy_add_x_forwarded_for" in nginx:
    faults.append("nginx.conf appends to a client's X-Forwarded-For: it is the edge")
if servers != 2:
    faults.append(f"nginx.conf: two servers (gRPC, browsers) expected, found {servers}")
for fault in faults:
    print(f"deploy-check: {fault}", file=sys.stderr)
if faults:
    sys.exit(1)
print(f"deploy-check: the replicas trust exactly nginx ({addresses[0]}), which sets the client's address")
