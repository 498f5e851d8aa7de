/**
 * The remoting protocol as plain Java: {@link dev.wharf.protocol.RemotingCommand} (one request or response),
 * its frame layout ({@link dev.wharf.protocol.RemotingFrameDescriptor}), the pure header/frame codec and the
 * request and response code tables. Nothing here depends on Netty, so the store, tools and tests can build and
 * read frames with {@link java.nio.ByteBuffer} alone; the Netty pipeline lives in {@code dev.wharf.remoting}.
 */
package dev.wharf.protocol;
