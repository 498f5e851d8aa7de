/**
 * The Netty side of the wire format: cutting the byte stream into frames (and bounding what unfinished frames
 * may hold, per endpoint and in time), turning frames into {@link dev.wharf.protocol.RemotingCommand}s and back
 * (with zero-copy body buffers). These handlers know nothing of requests, processors or invocations; they depend
 * on {@code dev.wharf.protocol} and {@code dev.wharf.common.util} only.
 */
package dev.wharf.remoting.codec;
