package dev.wharf.spring.core;

import dev.wharf.client.producer.SendResult;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Observes the template's sends as {@value #NAME} (Micrometer turns it into a timer of that name, tagged with the
 * topic and the kind of send, and a span); with the {@link ObservationRegistry#NOOP} registry it costs nothing.
 * Failures come out as Spring {@link org.springframework.messaging.MessagingException}s. Thread-safe.
 */
final class SendObservations {

    /** The observation of one send. */
    static final String NAME = "wharf.message.publish";

    @FunctionalInterface
    interface Send<T> {
        T run() throws Exception;
    }

    private final ObservationRegistry registry;

    SendObservations(ObservationRegistry registry) {
        this.registry = registry;
    }

    <T> T observe(String topic, String kind, Send<T> send) {
        Observation observation = start(topic, kind);
        try {
            return send.run();
        } catch (Exception e) {
            RuntimeException failure = WharfTemplate.failure(topic, e);
            observation.error(failure);
            throw failure;
        } finally {
            observation.stop();
        }
    }

    CompletableFuture<SendResult> observeAsync(String topic, Supplier<CompletableFuture<SendResult>> send) {
        Observation observation = start(topic, "async");
        CompletableFuture<SendResult> future;
        try {
            future = send.get();
        } catch (RuntimeException e) {
            observation.error(e);
            observation.stop();
            return CompletableFuture.failedFuture(e);
        }
        return future.handle((result, error) -> {
            if (error != null) {
                Throwable cause = error instanceof java.util.concurrent.CompletionException c && c.getCause() != null
                        ? c.getCause() : error;
                RuntimeException failure = WharfTemplate.failure(topic,
                        cause instanceof Exception e ? e : new RuntimeException(cause));
                observation.error(failure);
                observation.stop();
                throw failure;
            }
            observation.stop();
            return result;
        });
    }

    private Observation start(String topic, String kind) {
        return Observation.createNotStarted(NAME, registry)
                .contextualName(topic + " publish")
                .lowCardinalityKeyValue("messaging.system", "wharf")
                .lowCardinalityKeyValue("messaging.destination.name", topic)
                .lowCardinalityKeyValue("wharf.send", kind)
                .start();
    }
}
