/**
 * Loads the service definitions at run time from the .proto files (no generated code), so
 * the wire contract lives in one place: proto/unary.proto.
 */
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { protoPath as healthProtoPath } from "grpc-health-check";
import { type DecodedGreetRequest, decodeGreetRequest } from "./request-codec.js";

/** proto/unary.proto, resolved from dist/src/ or src/. */
export const unaryProtoPath = fileURLToPath(new URL("../../proto/unary.proto", import.meta.url));

/** Options that keep field names as written (`name`, `message`) and defaults present. */
const loaderOptions: protoLoader.Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
};

/** The unary package plus the health service: what reflection describes. */
export function loadServicePackages(): protoLoader.PackageDefinition {
  return protoLoader.loadSync([unaryProtoPath, healthProtoPath], loaderOptions);
}

/** The GreetService definition, for servers (addService) and clients. */
export function greetServiceDefinition(): grpc.ServiceDefinition {
  const definition = protoLoader.loadSync(unaryProtoPath, loaderOptions);
  const loaded = grpc.loadPackageDefinition(definition) as unknown as {
    unary: { GreetService: grpc.ServiceClientConstructor };
  };
  return loaded.unary.GreetService.service;
}

/**
 * The GreetService definition for the server: requests are read by the strict decoder, which
 * reports invalid UTF-8 and truncated messages instead of guessing (see request-codec.ts).
 */
export function greetServerDefinition(): grpc.ServiceDefinition {
  const definition = greetServiceDefinition();
  const greet = definition.greet as grpc.MethodDefinition<DecodedGreetRequest, GreetResponse>;
  return { ...definition, greet: { ...greet, requestDeserialize: decodeGreetRequest } };
}

/** A client constructor for unary.GreetService. */
export function greetClientConstructor(): grpc.ServiceClientConstructor {
  return grpc.makeGenericClientConstructor(greetServiceDefinition(), "GreetService");
}

export interface GreetRequest {
  name: string;
}

export interface GreetResponse {
  message: string;
}
