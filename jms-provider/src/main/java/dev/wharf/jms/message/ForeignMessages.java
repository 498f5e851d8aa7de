package dev.wharf.jms.message;

import dev.wharf.jms.destination.Destinations;
import jakarta.jms.BytesMessage;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import java.io.ByteArrayOutputStream;
import java.util.Enumeration;

/**
 * Copies a message of another provider into a Wharf message of the same body type, so that it can be sent
 * (Jakarta Messaging 3.1, 3.12 "Provider implementations of JMS message interfaces": a provider must handle
 * message implementations that are not its own).
 *
 * <p>A bytes or stream message is read after {@code reset()} and reset again afterwards, so it is left
 * read-only at its start. Destinations are converted by their queue or topic name, or dropped when they have
 * no Wharf equivalent. The provider-set
 * {@code JMSXDeliveryCount} of a message the foreign provider delivered is not copied (it describes that
 * delivery, not the message).
 */
final class ForeignMessages {

    /** Largest body a copied bytes message may have (what a Java array holds). */
    private static final int MAX_BYTES = Integer.MAX_VALUE - 8;

    private ForeignMessages() {
    }

    static WharfMessage copy(Message foreign, DeserializationPolicy policy) throws JMSException {
        WharfMessage m = copyBody(foreign, policy);
        m.setJMSMessageID(foreign.getJMSMessageID());
        m.setJMSTimestamp(foreign.getJMSTimestamp());
        String correlationId = foreign.getJMSCorrelationID();
        if (correlationId != null) {
            m.setJMSCorrelationID(correlationId);
        } else {
            m.setJMSCorrelationIDAsBytes(correlationIdBytes(foreign));
        }
        m.setJMSReplyTo(convertible(foreign.getJMSReplyTo()));
        m.setJMSDestination(convertible(foreign.getJMSDestination()));
        m.setJMSDeliveryMode(foreign.getJMSDeliveryMode());
        m.setJMSPriority(foreign.getJMSPriority());
        m.setJMSExpiration(foreign.getJMSExpiration());
        m.setJMSDeliveryTime(foreign.getJMSDeliveryTime());
        m.setJMSType(foreign.getJMSType());
        m.setJMSRedelivered(foreign.getJMSRedelivered());
        Enumeration<?> names = foreign.getPropertyNames();
        while (names != null && names.hasMoreElements()) {
            String name = (String) names.nextElement();
            if (PropertyNames.JMSX_DELIVERY_COUNT.equals(name)) {
                continue;
            }
            try {
                m.setObjectProperty(name, foreign.getObjectProperty(name));
            } catch (IllegalArgumentException e) {
                MessageFormatException mfe = new MessageFormatException("The message of another provider has a"
                        + " property Wharf cannot carry: " + e.getMessage());
                mfe.initCause(e);
                throw mfe;
            }
        }
        return m;
    }

    /**
     * The destination by name, or null when it has no Wharf equivalent (not a queue or topic, or a name Wharf
     * cannot use): the specification does not require a provider to keep a foreign message's foreign
     * {@code JMSReplyTo}, and {@code JMSDestination} is set anew by the send.
     */
    private static Destination convertible(Destination d) throws JMSException {
        try {
            return Destinations.toWharf(d);
        } catch (InvalidDestinationException e) {
            return null;
        }
    }

    private static byte[] correlationIdBytes(Message foreign) {
        try {
            return foreign.getJMSCorrelationIDAsBytes();
        } catch (JMSException | RuntimeException e) {
            // Providers may refuse byte correlation ids (the specification makes them optional): there is none.
            return null;
        }
    }

    private static WharfMessage copyBody(Message foreign, DeserializationPolicy policy) throws JMSException {
        if (foreign instanceof TextMessage t) {
            return new WharfTextMessage(t.getText());
        }
        if (foreign instanceof BytesMessage b) {
            WharfBytesMessage m = new WharfBytesMessage();
            byte[] data = readAll(b);
            m.writeBytes(data, 0, data.length);
            return m;
        }
        if (foreign instanceof MapMessage mm) {
            WharfMapMessage m = new WharfMapMessage();
            Enumeration<?> names = mm.getMapNames();
            while (names != null && names.hasMoreElements()) {
                String name = (String) names.nextElement();
                m.setObject(name, mm.getObject(name));
            }
            return m;
        }
        if (foreign instanceof StreamMessage s) {
            WharfStreamMessage m = new WharfStreamMessage();
            s.reset();
            while (true) {
                Object v;
                try {
                    v = s.readObject();
                } catch (MessageEOFException end) {
                    break;
                }
                m.writeObject(v);
            }
            s.reset();
            return m;
        }
        if (foreign instanceof ObjectMessage o) {
            WharfObjectMessage m = new WharfObjectMessage(policy);
            m.setObject(o.getObject());
            return m;
        }
        return new WharfMessage();
    }

    /**
     * The whole body of a bytes message, read from its start: {@code reset()} first (the application may have
     * been writing or reading it), then {@code readBytes} until it reports the end, so nothing depends on the
     * other provider's {@code getBodyLength()}; {@code reset()} again leaves it read-only at its start.
     */
    private static byte[] readAll(BytesMessage b) throws JMSException {
        b.reset();
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        byte[] chunk = new byte[65536];
        for (int n = b.readBytes(chunk); n > 0; n = b.readBytes(chunk)) {
            if (data.size() > MAX_BYTES - n) {
                throw new MessageFormatException("The bytes message of another provider holds more than " + MAX_BYTES
                        + " bytes, more than a Wharf message can; send less data per message.");
            }
            data.write(chunk, 0, n);
        }
        b.reset();
        return data.toByteArray();
    }
}
