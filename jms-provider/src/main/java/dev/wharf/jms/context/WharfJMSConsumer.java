package dev.wharf.jms.context;

import static dev.wharf.jms.error.JmsErrors.unchecked;
import static dev.wharf.jms.error.JmsErrors.uncheckedRun;

import jakarta.jms.JMSConsumer;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageListener;

/** A {@link JMSConsumer}: the context session's message consumer, with unchecked exceptions. */
public final class WharfJMSConsumer implements JMSConsumer {

    private final MessageConsumer consumer;

    WharfJMSConsumer(MessageConsumer consumer) {
        this.consumer = consumer;
    }

    @Override
    public String getMessageSelector() {
        return unchecked(consumer::getMessageSelector);
    }

    @Override
    public MessageListener getMessageListener() {
        return unchecked(consumer::getMessageListener);
    }

    @Override
    public void setMessageListener(MessageListener listener) {
        uncheckedRun(() -> consumer.setMessageListener(listener));
    }

    @Override
    public Message receive() {
        return unchecked(consumer::receive);
    }

    @Override
    public Message receive(long timeout) {
        return unchecked(() -> consumer.receive(timeout));
    }

    @Override
    public Message receiveNoWait() {
        return unchecked(consumer::receiveNoWait);
    }

    @Override
    public void close() {
        uncheckedRun(consumer::close);
    }

    @Override
    public <T> T receiveBody(Class<T> c) {
        return receiveBody(c, 0);
    }

    @Override
    public <T> T receiveBody(Class<T> c, long timeout) {
        Message m = receive(timeout);
        return m == null ? null : unchecked(() -> m.getBody(c));
    }

    @Override
    public <T> T receiveBodyNoWait(Class<T> c) {
        Message m = receiveNoWait();
        return m == null ? null : unchecked(() -> m.getBody(c));
    }
}
