package dev.wharf.client.consumer.push;

import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import dev.wharf.protocol.body.ConsumerModel.MessageModel;
import java.nio.file.Path;

/**
 * The push consumer's options, fixed when it starts (see {@code dev.wharf.client.consumer.PushConsumer} for what
 * each one means).
 */
public record PushSettings(
        String group,
        MessageModel messageModel,
        ConsumeFromWhere consumeFromWhere,
        long consumeTimestamp,
        boolean orderly,
        int consumeThreadMin,
        int consumeThreadMax,
        int pullBatchSize,
        int consumeMessageBatchMaxSize,
        int pullThresholdForQueue,
        int pullThresholdSizeForQueueMiB,
        int consumeConcurrentlyMaxSpan,
        long pullIntervalMillis,
        int maxReconsumeTimes,
        long consumeTimeoutMillis,
        long suspendCurrentQueueTimeMillis,
        long brokerSuspendMaxTimeMillis,
        long consumerTimeoutMillisWhenSuspend,
        long pullTimeDelayMillisWhenException,
        long awaitTerminationMillisWhenShutdown,
        Path offsetStoreDir) {

    public boolean clustering() {
        return messageModel == MessageModel.CLUSTERING;
    }
}
