package dev.wharf.spring.boot.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** Settings of the RocketMQ-style Spring API: {@code @MessageListener} containers and the WharfTemplate. */
@ConfigurationProperties("wharf.messaging")
public class WharfMessagingProperties {

    /**
     * Client instance name of the listeners (a client id per application context otherwise). Give broadcasting
     * listeners a stable name: their offsets are kept per client id and survive a restart only under the same name.
     */
    private String instanceName;

    /** Where broadcasting listeners keep their offsets (default: ${user.home}/.wharf/offsets). */
    private Path offsetStoreDir;

    /** How long a stopping listener waits for the messages it is consuming. */
    private Duration shutdownTimeout = Duration.ofSeconds(10);

    /** Queues of a topic that a listener creates because no broker has it yet. */
    private int topicQueues = 8;

    /** Producer group of WharfTemplate's sends outside transactions (default: the producer group + "-template"). */
    private String templateProducerGroup;

    public String getInstanceName() {
        return instanceName;
    }

    public void setInstanceName(String instanceName) {
        this.instanceName = instanceName;
    }

    public Path getOffsetStoreDir() {
        return offsetStoreDir;
    }

    public void setOffsetStoreDir(Path offsetStoreDir) {
        this.offsetStoreDir = offsetStoreDir;
    }

    public Duration getShutdownTimeout() {
        return shutdownTimeout;
    }

    public void setShutdownTimeout(Duration shutdownTimeout) {
        this.shutdownTimeout = shutdownTimeout;
    }

    public int getTopicQueues() {
        return topicQueues;
    }

    public void setTopicQueues(int topicQueues) {
        this.topicQueues = topicQueues;
    }

    public String getTemplateProducerGroup() {
        return templateProducerGroup;
    }

    public void setTemplateProducerGroup(String templateProducerGroup) {
        this.templateProducerGroup = templateProducerGroup;
    }
}
