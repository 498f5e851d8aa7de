package dev.wharf.protocol;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import dev.wharf.protocol.header.HeaderCodec;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One request or response of the remoting protocol: the header fields of
 * {@link RemotingFrameDescriptor} plus a body.
 *
 * <p>The body is either a {@code byte[]} ({@link #setBody}) or, for outbound commands only, a list of
 * buffers written to the socket without a heap copy ({@link #setBodyBuffers}); the broker uses the latter
 * to send slices of memory-mapped files. Header extension fields ("extFields") carry the typed request
 * header of each code as strings; the {@code requireExt...} accessors parse them and throw a
 * {@link RemotingCommandException} naming the field when one is missing or malformed.
 *
 * <p>Not thread-safe: a command is built by one thread and handed over to the remoting layer, which only
 * reads it. Only {@link #releaseBodyBuffers()} may be called from any thread.
 */
public final class RemotingCommand {

    /** Language sent in headers; RocketMQ clients parse it as an enum, so it must be one of theirs. */
    public static final String DEFAULT_LANGUAGE = "JAVA";
    /** Protocol version sent in headers unless set otherwise. */
    public static final int DEFAULT_VERSION = 0;

    private static final AtomicInteger NEXT_OPAQUE = new AtomicInteger();
    private static final int MAX_VALUE_IN_MESSAGE = 64;
    private static final Runnable NO_CALLBACK = () -> { };
    private static final Runnable RELEASED = () -> { };
    private static final VarHandle ON_WRITTEN;

    static {
        try {
            ON_WRITTEN = MethodHandles.lookup().findVarHandle(RemotingCommand.class, "onWritten", Runnable.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private int code;
    private String language = DEFAULT_LANGUAGE;
    private int version = DEFAULT_VERSION;
    private int opaque;
    private int flag;
    private String remark;
    private Map<String, String> extFields;
    private byte[] body;
    private List<ByteBuffer> bodyBuffers;
    private int bodyBuffersLength;
    @SuppressWarnings("unused") // accessed through ON_WRITTEN
    private volatile Runnable onWritten;
    /** The header encoding, from the frame's header-length word: JSON unless a request came in RocketMQ's binary one. */
    private byte serializeType = RemotingFrameDescriptor.SERIALIZE_TYPE_JSON;
    /** Not on the wire: the code of the request a response answers (-1 when unknown), for metrics. */
    private int answersCode = -1;
    /** Not on the wire: System.nanoTime() when the request arrived (copied into its response), for metrics. */
    private long arrivedNanos;

    RemotingCommand() {
    }

    /** A new request with the next opaque of this JVM, so responses can be matched to it. */
    public static RemotingCommand createRequest(int code) {
        RemotingCommand request = new RemotingCommand();
        request.code = code;
        request.opaque = NEXT_OPAQUE.getAndIncrement();
        return request;
    }

    /**
     * A new response. Its opaque is 0: the remoting server copies the request's opaque into a response a
     * processor returns; a response written later through {@code RemotingChannel.writeResponse} must get
     * it from {@link #newResponse} or {@link #setOpaque}.
     */
    public static RemotingCommand createResponse(int code, String remark) {
        RemotingCommand response = new RemotingCommand();
        response.code = code;
        response.remark = remark;
        response.markResponse();
        return response;
    }

    /** A response to this request: same opaque, response flag set. */
    public RemotingCommand newResponse(int code, String remark) {
        RemotingCommand response = createResponse(code, remark);
        response.opaque = opaque;
        response.answersCode = this.code;
        response.arrivedNanos = arrivedNanos;
        response.serializeType = serializeType;
        return response;
    }

    /** Notes when this request arrived (the server's I/O thread), so that its response can tell how long it took. */
    public void markArrived(long nanoTime) {
        this.arrivedNanos = nanoTime;
    }

    /**
     * Makes this response name {@code request} as the one it answers, unless it already does (a response made
     * with {@link #createResponse} rather than {@link #newResponse}).
     */
    public void markAnswering(RemotingCommand request) {
        // a response goes back in the header encoding its request came in
        serializeType = request.serializeType;
        if (answersCode < 0) {
            answersCode = request.code;
            arrivedNanos = request.arrivedNanos;
        }
    }

    /** The code of the request this response answers, or -1 when it was not made from one. Not on the wire. */
    public int answersCode() {
        return answersCode;
    }

    /** System.nanoTime() when the answered request arrived (0 when unknown). Not on the wire. */
    public long arrivedNanos() {
        return arrivedNanos;
    }

    // ------------------------------------------------------------------ header fields

    /**
     * How the header is encoded on the wire: {@link RemotingFrameDescriptor#SERIALIZE_TYPE_JSON} or, for a request
     * that came in RocketMQ's binary encoding and its response, {@link RemotingFrameDescriptor#SERIALIZE_TYPE_ROCKETMQ}.
     */
    public int serializeType() {
        return serializeType;
    }

    /** Sets the header encoding; see {@link #serializeType()}. */
    public RemotingCommand setSerializeType(int serializeType) {
        if (serializeType != RemotingFrameDescriptor.SERIALIZE_TYPE_JSON
                && serializeType != RemotingFrameDescriptor.SERIALIZE_TYPE_ROCKETMQ) {
            throw new IllegalArgumentException("serialize type " + serializeType + " is neither JSON ("
                    + RemotingFrameDescriptor.SERIALIZE_TYPE_JSON + ") nor RocketMQ's binary encoding ("
                    + RemotingFrameDescriptor.SERIALIZE_TYPE_ROCKETMQ + ")");
        }
        this.serializeType = (byte) serializeType;
        return this;
    }

    public int code() {
        return code;
    }

    public RemotingCommand setCode(int code) {
        this.code = code;
        return this;
    }

    public String language() {
        return language;
    }

    public RemotingCommand setLanguage(String language) {
        this.language = Objects.requireNonNull(language, "language");
        return this;
    }

    public int version() {
        return version;
    }

    public RemotingCommand setVersion(int version) {
        this.version = version;
        return this;
    }

    /** Correlates a response with its request; unique per JVM for requests made by {@link #createRequest}. */
    public int opaque() {
        return opaque;
    }

    public RemotingCommand setOpaque(int opaque) {
        this.opaque = opaque;
        return this;
    }

    public int flag() {
        return flag;
    }

    public RemotingCommand setFlag(int flag) {
        this.flag = flag;
        return this;
    }

    public RemotingCommand markResponse() {
        flag |= RemotingFrameDescriptor.FLAG_RESPONSE;
        return this;
    }

    public boolean isResponse() {
        return (flag & RemotingFrameDescriptor.FLAG_RESPONSE) != 0;
    }

    public RemotingCommand markOneway() {
        flag |= RemotingFrameDescriptor.FLAG_ONEWAY;
        return this;
    }

    public boolean isOneway() {
        return (flag & RemotingFrameDescriptor.FLAG_ONEWAY) != 0;
    }

    /** Human-readable detail, mostly the reason of an error response; may be null. */
    public String remark() {
        return remark;
    }

    public RemotingCommand setRemark(String remark) {
        this.remark = remark;
        return this;
    }

    // ------------------------------------------------------------------ extension fields

    /** The extension fields, read-only; empty if there are none. */
    public Map<String, String> extFields() {
        return extFields == null ? Collections.emptyMap() : Collections.unmodifiableMap(extFields);
    }

    /** The live map, or null when empty; for the codec, which must not allocate an empty map per frame. */
    Map<String, String> extFieldsOrNull() {
        return extFields == null || extFields.isEmpty() ? null : extFields;
    }

    /** Adopts a map the codec built; the command takes ownership. */
    void adoptExtFields(Map<String, String> fields) {
        this.extFields = fields;
    }

    /** Writes a typed header record into the extension fields (see {@link HeaderCodec}). */
    public RemotingCommand writeHeader(Record header) {
        Map<String, String> encoded = HeaderCodec.encode(header);
        if (extFields == null) {
            extFields = encoded;
        } else {
            extFields.putAll(encoded);
        }
        return this;
    }

    /**
     * Reads a typed header record from the extension fields.
     *
     * @throws dev.wharf.protocol.header.HeaderException naming a missing or malformed field
     */
    public <T extends Record> T readHeader(Class<T> type) {
        return HeaderCodec.decode(extFields, type);
    }

    /** Sets an extension field to {@code String.valueOf(value)}; a null value removes the field. */
    public RemotingCommand putExt(String name, Object value) {
        Objects.requireNonNull(name, "extension field name");
        if (value == null) {
            if (extFields != null) {
                extFields.remove(name);
            }
            return this;
        }
        if (extFields == null) {
            extFields = new HashMap<>();
        }
        extFields.put(name, String.valueOf(value));
        return this;
    }

    /** The raw value of an extension field, or null if absent. */
    public String ext(String name) {
        return extFields == null ? null : extFields.get(name);
    }

    public String requireExt(String name) throws RemotingCommandException {
        String value = ext(name);
        if (value == null) {
            throw new RemotingCommandException(describe() + " lacks the required header field '" + name + "'",
                    name, null);
        }
        return value;
    }

    public int requireExtInt(String name) throws RemotingCommandException {
        return parseInt(name, requireExt(name));
    }

    public long requireExtLong(String name) throws RemotingCommandException {
        return parseLong(name, requireExt(name));
    }

    public boolean requireExtBoolean(String name) throws RemotingCommandException {
        return parseBoolean(name, requireExt(name));
    }

    /** The field as an int, empty if absent; a present but malformed value is an error. */
    public OptionalInt extInt(String name) throws RemotingCommandException {
        String value = ext(name);
        return value == null ? OptionalInt.empty() : OptionalInt.of(parseInt(name, value));
    }

    /** The field as a long, empty if absent; a present but malformed value is an error. */
    public OptionalLong extLong(String name) throws RemotingCommandException {
        String value = ext(name);
        return value == null ? OptionalLong.empty() : OptionalLong.of(parseLong(name, value));
    }

    public int extInt(String name, int defaultValue) throws RemotingCommandException {
        String value = ext(name);
        return value == null ? defaultValue : parseInt(name, value);
    }

    public long extLong(String name, long defaultValue) throws RemotingCommandException {
        String value = ext(name);
        return value == null ? defaultValue : parseLong(name, value);
    }

    public boolean extBoolean(String name, boolean defaultValue) throws RemotingCommandException {
        String value = ext(name);
        return value == null ? defaultValue : parseBoolean(name, value);
    }

    private int parseInt(String name, String value) throws RemotingCommandException {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw malformed(name, value, "an int");
        }
    }

    private long parseLong(String name, String value) throws RemotingCommandException {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw malformed(name, value, "a long");
        }
    }

    private boolean parseBoolean(String name, String value) throws RemotingCommandException {
        if ("true".equalsIgnoreCase(value)) {
            return true;
        }
        if ("false".equalsIgnoreCase(value)) {
            return false;
        }
        throw malformed(name, value, "true or false");
    }

    private RemotingCommandException malformed(String name, String value, String expected) {
        String shown = value.length() > MAX_VALUE_IN_MESSAGE ? value.substring(0, MAX_VALUE_IN_MESSAGE) + "..." : value;
        return new RemotingCommandException("header field '" + name + "' of " + describe() + " must be "
                + expected + ", but is '" + shown + "'", name, value);
    }

    /** "request PULL_MESSAGE(11)" or "response SYSTEM_ERROR(1)", for messages and logs. */
    public String describe() {
        return isResponse() ? "response " + ResponseCode.NAMES.describe(code) : "request " + RequestCode.NAMES.describe(code);
    }

    // ------------------------------------------------------------------ body

    /** The byte[] body, or null if there is none (or the body is given as buffers). */
    public byte[] body() {
        return body;
    }

    public RemotingCommand setBody(byte[] body) {
        if (bodyBuffers != null) {
            throw new IllegalStateException("this command's body is already set as buffers; a command carries "
                    + "either a byte[] body or body buffers");
        }
        this.body = body;
        return this;
    }

    /**
     * Sets an outbound body made of buffers (for example slices of memory-mapped files) that the remoting
     * layer writes to the socket without copying them into the heap. The buffers' bytes from position to
     * limit are sent; the buffers themselves are not modified. {@code onWritten} runs exactly once, after
     * the write completed or failed (also if the command is never written because the connection is
     * gone); use it to release whatever keeps the buffers valid. Until then the buffers must stay valid.
     */
    public RemotingCommand setBodyBuffers(List<ByteBuffer> buffers, Runnable onWritten) {
        Objects.requireNonNull(buffers, "buffers");
        if (bodyBuffers != null) {
            throw new IllegalStateException("body buffers are already set on this command");
        }
        long total = 0;
        for (ByteBuffer buffer : buffers) {
            total += Objects.requireNonNull(buffer, "body buffer").remaining();
        }
        if (total > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("body buffers hold " + total + " bytes, more than a frame can carry");
        }
        this.bodyBuffers = List.copyOf(buffers);
        this.bodyBuffersLength = (int) total;
        this.body = null;
        ON_WRITTEN.setVolatile(this, onWritten == null ? NO_CALLBACK : onWritten);
        return this;
    }

    /** The body buffers given to {@link #setBodyBuffers}, or null. */
    public List<ByteBuffer> bodyBuffers() {
        return bodyBuffers;
    }

    public boolean hasBodyBuffers() {
        return bodyBuffers != null;
    }

    /** Whether the body buffers were set and their {@code onWritten} callback has already run. */
    public boolean bodyBuffersReleased() {
        return bodyBuffers != null && ON_WRITTEN.getVolatile(this) == RELEASED;
    }

    /**
     * Runs the {@code onWritten} callback given to {@link #setBodyBuffers} if it has not run yet; safe to
     * call any number of times from any thread. Returns whether this call ran it. An exception thrown by
     * the callback propagates to the caller.
     */
    public boolean releaseBodyBuffers() {
        if (bodyBuffers == null) {
            return false;
        }
        Runnable callback = (Runnable) ON_WRITTEN.getAndSet(this, RELEASED);
        if (callback == RELEASED || callback == null) {
            return false;
        }
        callback.run();
        return true;
    }

    /** Body bytes on the wire, whichever way the body is held. */
    public int bodyLength() {
        if (bodyBuffers != null) {
            return bodyBuffersLength;
        }
        return body == null ? 0 : body.length;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("RemotingCommand[").append(describe())
                .append(", opaque=").append(opaque)
                .append(", flag=").append(flag);
        if (remark != null) {
            sb.append(", remark=").append(remark);
        }
        if (extFields != null && !extFields.isEmpty()) {
            String ext = extFields.toString();
            sb.append(", ext=").append(ext.length() > 256 ? ext.substring(0, 256) + "...}" : ext);
        }
        return sb.append(", body=").append(bodyLength()).append(" bytes]").toString();
    }
}
