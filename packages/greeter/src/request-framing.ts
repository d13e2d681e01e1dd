/**
 * A server interceptor for methods that take one request message. When the stream ends in
 * the middle of a gRPC frame (its 5-byte prefix promised more bytes than came), grpc-js
 * drops the partial bytes and reports UNIMPLEMENTED "Received no request message"; the
 * caller's mistake is the input, so this answers INVALID_ARGUMENT instead.
 */
import * as grpc from "@grpc/grpc-js";

export const MISSING_MESSAGE =
  "request message is truncated or missing: the stream ended before one whole message";

export const requireRequestMessage: grpc.ServerInterceptor = (method, call) => {
  // Client-streaming methods may legitimately send no message at all.
  if (method.requestStream) return new grpc.ServerInterceptingCall(call);
  let received = false;
  const listener = new grpc.ServerListenerBuilder()
    .withOnReceiveMessage((message, next) => {
      received = true;
      next(message);
    })
    .withOnReceiveHalfClose((next) => {
      if (received) {
        next();
        return;
      }
      intercepting.sendStatus({ code: grpc.status.INVALID_ARGUMENT, details: MISSING_MESSAGE });
    })
    .build();
  const responder = new grpc.ResponderBuilder().withStart((next) => next(listener)).build();
  const intercepting = new grpc.ServerInterceptingCall(call, responder);
  return intercepting;
};
