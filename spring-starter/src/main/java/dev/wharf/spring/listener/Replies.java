package dev.wharf.spring.listener;

import dev.wharf.common.message.MessageExt;
import dev.wharf.jms.message.WireProperties;
import dev.wharf.spring.core.WharfTemplate;
import dev.wharf.spring.support.WharfHeaders;
import java.util.function.Supplier;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;
import org.springframework.messaging.converter.MessageConversionException;
import org.springframework.messaging.converter.MessageConverter;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.util.MimeType;

/**
 * Sends a listener's return value as the reply to a request: to the destination in the request's
 * {@code JMSReplyTo} property ({@code queue://}, {@code topic://}, {@code temp-queue://} URIs as JMS writes them,
 * or a plain topic name), with the request's correlation id (or, as JMS does, {@code ID:} + its message id), and
 * marked as a JMS text message when it is text or JSON, so a JMS requester reads it as such. Thread-safe.
 */
final class Replies {

    private static final String SCHEME = "://";

    private final Supplier<WharfTemplate> template;

    Replies(Supplier<WharfTemplate> template) {
        this.template = template;
    }

    /** Whether the request names a reply destination. */
    static boolean wanted(MessageExt request) {
        String to = request.getProperty(WharfHeaders.REPLY_TO);
        return to != null && !to.isBlank();
    }

    /**
     * Sends the reply.
     *
     * @throws MessageConversionException when the converter cannot write the value
     */
    void send(MessageExt request, Object value, MessageConverter converter) {
        Message<?> converted = converter.toMessage(value, null);
        if (converted == null) {
            throw new MessageConversionException("The listener returned a " + value.getClass().getName()
                    + ", which " + converter.getClass().getSimpleName() + " cannot write as a reply.");
        }
        String correlation = request.getProperty(WharfHeaders.CORRELATION_ID);
        if (correlation == null) {
            correlation = "ID:" + request.getMsgId();
        }
        Message<?> reply = MessageBuilder.fromMessage(converted)
                .setHeader(WharfHeaders.CORRELATION_ID, correlation)
                .setHeader(WireProperties.BODY_TYPE, isText(converted) ? "text" : "bytes")
                .build();
        template.get().syncSend(topicOf(request.getProperty(WharfHeaders.REPLY_TO)), reply);
    }

    private static boolean isText(Message<?> converted) {
        if (converted.getPayload() instanceof String) {
            return true;
        }
        Object type = converted.getHeaders().get(MessageHeaders.CONTENT_TYPE);
        MimeType mime = type instanceof MimeType m ? m : type != null ? MimeType.valueOf(type.toString()) : null;
        return mime != null && (mime.getType().equals("text") || mime.getSubtype().equals("json")
                || mime.getSubtype().endsWith("+json"));
    }

    /** The broker topic of a reply destination. */
    static String topicOf(String replyTo) {
        String to = replyTo.strip();
        int at = to.indexOf(SCHEME);
        return at < 0 ? to : to.substring(at + SCHEME.length());
    }
}
