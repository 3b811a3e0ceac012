// The transport both examples take from their command line: the Connect
// protocol over HTTP/2, or gRPC-Web over HTTP/1.1, to the same port.
import type { Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-node";

export function transportFor(baseUrl: string, protocol: string): Transport {
  if (protocol === "grpc-web") return createGrpcWebTransport({ baseUrl, httpVersion: "1.1" });
  if (protocol === "connect") return createConnectTransport({ baseUrl, httpVersion: "2" });
  throw new Error(`unknown protocol ${protocol}: connect or grpc-web`);
}
