/**
 * The Netty side of the wire format: cutting the byte stream into frames, turning frames into
 * {@link dev.wharf.protocol.RemotingCommand}s and back (with zero-copy body buffers). These handlers know
 * nothing of requests, processors or invocations; they depend on {@code dev.wharf.protocol} only.
 */
package dev.wharf.remoting.codec;
