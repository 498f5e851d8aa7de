package dev.wharf.console;

import dev.wharf.common.message.HostAddress;
import dev.wharf.common.message.MessageExt;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A message as the pages show it: ids, where it is stored, when, its properties and a preview of its body (text
 * when the body is UTF-8, hex otherwise) with the content type it declares or looks like.
 */
public record MessageView(String msgId, String offsetMsgId, String topic, String broker, int queueId, long queueOffset,
                          String tags, String keys, long bornTimestamp, String bornHost, long storeTimestamp,
                          String storeHost, int reconsumeTimes, int bodySize, String contentType, String bodyPreview,
                          boolean bodyIsText, Map<String, String> properties) {

    static final int PREVIEW_CHARS = 4_096;
    static final int PREVIEW_HEX_BYTES = 256;

    static MessageView of(MessageExt m) {
        byte[] body = m.getBody() == null ? new byte[0] : m.getBody();
        String text = utf8(body);
        Map<String, String> properties = new TreeMap<>(m.getProperties() == null ? Map.of() : m.getProperties());
        String preview = text != null ? (text.length() > PREVIEW_CHARS ? text.substring(0, PREVIEW_CHARS) + "…" : text)
                : HexFormat.ofDelimiter(" ").formatHex(body, 0, Math.min(body.length, PREVIEW_HEX_BYTES))
                        + (body.length > PREVIEW_HEX_BYTES ? " …" : "");
        return new MessageView(m.getMsgId(), m.getOffsetMsgId(), m.getTopic(), m.getBrokerName(), m.getQueueId(),
                m.getQueueOffset(), m.getTags(), m.getProperty("KEYS"), m.getBornTimestamp(),
                m.getBornHost() == 0 ? null : HostAddress.toString(m.getBornHost()), m.getStoreTimestamp(),
                m.getStoreHost() == 0 ? null : HostAddress.toString(m.getStoreHost()), m.getReconsumeTimes(),
                body.length, contentType(properties, text), preview, text != null, properties);
    }

    private static String utf8(byte[] body) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** The type a property declares (content-type, contentType, JMS type hints), else a guess from the body. */
    private static String contentType(Map<String, String> properties, String text) {
        for (Map.Entry<String, String> e : properties.entrySet()) {
            String key = e.getKey().toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
            if (key.equals("contenttype")) {
                return e.getValue();
            }
        }
        if (text == null) {
            return "application/octet-stream";
        }
        String t = text.strip();
        if ((t.startsWith("{") && t.endsWith("}")) || (t.startsWith("[") && t.endsWith("]"))) {
            return "application/json";
        }
        if (t.startsWith("<") && t.endsWith(">")) {
            return "application/xml";
        }
        return "text/plain";
    }
}
