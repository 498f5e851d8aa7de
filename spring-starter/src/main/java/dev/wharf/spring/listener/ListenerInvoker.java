package dev.wharf.spring.listener;

import dev.wharf.common.message.MessageExt;
import dev.wharf.spring.support.WharfMessages;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.messaging.converter.MessageConverter;
import org.springframework.messaging.handler.invocation.InvocableHandlerMethod;

/**
 * Calls a listener method for one message: the message in Spring's form, the arguments resolved from it (payload
 * converted by the listener's converter, headers, the whole message), the return value sent as the reply when the
 * message asks for one. Observed as {@value #NAME}. Thread-safe (the handler method is).
 */
final class ListenerInvoker {

    /** The observation of one listener call. */
    static final String NAME = "wharf.message.process";

    private final ListenerEndpoint endpoint;
    private final InvocableHandlerMethod handler;
    private final MessageConverter converter;
    private final Replies replies;
    private final ObservationRegistry observations;

    ListenerInvoker(ListenerEndpoint endpoint, InvocableHandlerMethod handler, MessageConverter converter,
                    Replies replies, ObservationRegistry observations) {
        this.endpoint = endpoint;
        this.handler = handler;
        this.converter = converter;
        this.replies = replies;
        this.observations = observations;
    }

    /**
     * Consumes one message.
     *
     * @throws Exception what the method threw, or why its arguments or reply could not be converted: the message is
     *                   then retried
     */
    @SuppressWarnings("try") // the scope is opened for its effect: the observation is current while the handler runs
    void invoke(MessageExt msg) throws Exception {
        Observation observation = Observation.createNotStarted(NAME, observations)
                .contextualName(endpoint.topic() + " process")
                .lowCardinalityKeyValue("messaging.system", "wharf")
                .lowCardinalityKeyValue("messaging.destination.name", endpoint.topic())
                .lowCardinalityKeyValue("messaging.consumer.group.name", endpoint.consumerGroup())
                .lowCardinalityKeyValue("wharf.redelivered", Boolean.toString(msg.getReconsumeTimes() > 0))
                .start();
        try (Observation.Scope scope = observation.openScope()) {
            Object result = handler.invoke(WharfMessages.toSpring(msg));
            if (result != null && Replies.wanted(msg)) {
                replies.send(msg, result, converter);
            }
        } catch (Exception e) {
            observation.error(e);
            throw e;
        } finally {
            observation.stop();
        }
    }

    ListenerEndpoint endpoint() {
        return endpoint;
    }
}
