package dev.wharf.spring.listener;

import dev.wharf.client.ClientConfig;
import dev.wharf.spring.core.WharfTemplate;
import io.micrometer.observation.ObservationRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;
import org.springframework.messaging.converter.MessageConverter;
import org.springframework.messaging.handler.invocation.InvocableHandlerMethod;

/**
 * The application's {@code @MessageListener} containers, by id. As a {@link SmartLifecycle} it starts the
 * containers whose {@code autoStartup} is true once the context is ready (so listeners see fully initialised beans)
 * and stops them all, gracefully, when the context closes; each container can also be started and stopped on its own.
 * All containers share one client connection per application context. Thread-safe.
 */
public final class MessageListenerRegistry implements SmartLifecycle, DisposableBean {

    private final Supplier<ClientConfig> clientConfig;
    private final Duration shutdownTimeout;
    private final Path offsetStoreDir;
    private final TopicCreator topics;
    private final Replies replies;
    private final Supplier<ObservationRegistry> observations;
    private final Map<String, ListenerContainer> containers = new LinkedHashMap<>();
    private volatile boolean running;

    /**
     * @param clientConfig    the client settings of every container (one client id for the context), asked when
     *                        the first container starts
     * @param shutdownTimeout how long a stopping container waits for messages in progress
     * @param offsetStoreDir  where broadcasting listeners keep their offsets, or null for the client's default
     * @param topicQueues     the queues of a topic a listener creates because no broker has it
     * @param template        sends the replies
     * @param observations    observes listener calls
     */
    public MessageListenerRegistry(Supplier<ClientConfig> clientConfig, Duration shutdownTimeout, Path offsetStoreDir,
                                   int topicQueues, Supplier<WharfTemplate> template,
                                   Supplier<ObservationRegistry> observations) {
        this.clientConfig = memoized(Objects.requireNonNull(clientConfig, "clientConfig"));
        this.shutdownTimeout = Objects.requireNonNull(shutdownTimeout, "shutdownTimeout");
        this.offsetStoreDir = offsetStoreDir;
        this.topics = new TopicCreator(clientConfig, topicQueues);
        this.replies = new Replies(template);
        this.observations = observations;
    }

    private static Supplier<ClientConfig> memoized(Supplier<ClientConfig> supplier) {
        ClientConfig[] made = new ClientConfig[1];
        return () -> {
            synchronized (made) {
                if (made[0] == null) {
                    made[0] = supplier.get();
                }
                return made[0];
            }
        };
    }

    /** Adds the container of a listener; started at once when the registry runs and the listener auto-starts. */
    synchronized ListenerContainer register(ListenerEndpoint endpoint, InvocableHandlerMethod handler,
                                            MessageConverter converter) {
        if (containers.containsKey(endpoint.id())) {
            throw new IllegalStateException("Two @MessageListener have the id " + endpoint.id() + ": "
                    + containers.get(endpoint.id()).endpoint().describe() + " and " + endpoint.describe()
                    + "; give them different ids.");
        }
        ObservationRegistry registry = observations.get();
        ListenerInvoker invoker = new ListenerInvoker(endpoint, handler, converter, replies,
                registry == null ? ObservationRegistry.NOOP : registry);
        ListenerContainer container = new ListenerContainer(invoker, clientConfig, shutdownTimeout, offsetStoreDir,
                topics);
        containers.put(endpoint.id(), container);
        if (running && endpoint.autoStartup()) {
            container.start();
        }
        return container;
    }

    /** The container of a listener, or null. */
    public synchronized ListenerContainer getContainer(String id) {
        return containers.get(id);
    }

    public synchronized Collection<ListenerContainer> getContainers() {
        return List.copyOf(containers.values());
    }

    /** Each container's state by id ({@code RUNNING}, {@code STOPPED}, ... ; a failed start with its reason). */
    public synchronized Map<String, String> states() {
        Map<String, String> states = new LinkedHashMap<>();
        for (ListenerContainer c : containers.values()) {
            states.put(c.id(), c.state() == ListenerContainer.State.FAILED && c.failure() != null
                    ? "FAILED: " + c.failure() : c.state().name());
        }
        return states;
    }

    /**
     * Starts one listener.
     *
     * @throws IllegalArgumentException when there is no listener with that id
     */
    public void start(String id) {
        require(id).start();
    }

    /** Stops one listener, gracefully. */
    public void stop(String id) {
        require(id).stop();
    }

    private ListenerContainer require(String id) {
        ListenerContainer c = getContainer(id);
        if (c == null) {
            throw new IllegalArgumentException("No @MessageListener has the id " + id + "; the ids are "
                    + states().keySet() + ".");
        }
        return c;
    }

    @Override
    public void start() {
        List<ListenerContainer> toStart = new ArrayList<>();
        synchronized (this) {
            running = true;
            for (ListenerContainer c : containers.values()) {
                if (c.endpoint().autoStartup()) {
                    toStart.add(c);
                }
            }
        }
        toStart.forEach(ListenerContainer::start);
    }

    @Override
    public void stop() {
        List<ListenerContainer> toStop;
        synchronized (this) {
            running = false;
            toStop = new ArrayList<>(containers.values());
        }
        toStop.forEach(ListenerContainer::stop);
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public void destroy() {
        stop();
        topics.close();
    }
}
