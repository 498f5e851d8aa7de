package dev.wharf.jms.message;

import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import jakarta.jms.JMSException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

/** Sends messages through the codec and a stored record and receives them back, as a consumer would. */
final class Wire {

    /** "Now" for the codec in tests: 2026-01-01T00:00:00Z. */
    static final long NOW = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
    static final JmsMessageCodec CODEC = new JmsMessageCodec(DeserializationPolicy.ALLOW_ALL,
            Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC));

    private Wire() {
    }

    static Message send(jakarta.jms.Message m) throws JMSException {
        return CODEC.toWharf(m, "orders");
    }

    static MessageExt store(jakarta.jms.Message m) throws JMSException {
        return StoredRecords.storeAndRead(send(m), m.getJMSTimestamp());
    }

    /** The message as a consumer receives it on its first delivery. */
    @SuppressWarnings("unchecked")
    static <T extends WharfMessage> T roundTrip(jakarta.jms.Message m) throws JMSException {
        return (T) CODEC.fromWharf(store(m), 1, null, null);
    }
}
