package dev.wharf.jms.context;

import static dev.wharf.jms.error.JmsErrors.unchecked;
import static dev.wharf.jms.error.JmsErrors.uncheckedRun;

import dev.wharf.jms.core.WharfMessageConsumer;
import jakarta.jms.JMSConsumer;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/** A {@link JMSConsumer}: the context session's message consumer, with unchecked exceptions. */
public final class WharfJMSConsumer implements JMSConsumer {

    private final WharfMessageConsumer consumer;

    WharfJMSConsumer(WharfMessageConsumer consumer) {
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

    /** See {@link WharfMessageConsumer#receiveBody}: a body of the wrong type is not consumed in AUTO and DUPS_OK. */
    @Override
    public <T> T receiveBody(Class<T> c, long timeout) {
        return unchecked(() -> consumer.receiveBody(c, Math.max(0, timeout)));
    }

    @Override
    public <T> T receiveBodyNoWait(Class<T> c) {
        return unchecked(() -> consumer.receiveBody(c, -1));
    }
}
