package dev.wharf.client.ack;

import dev.wharf.client.ClientException;
import dev.wharf.client.impl.AckApi;
import dev.wharf.client.impl.RemotingCalls;
import dev.wharf.common.message.MessageExt;
import dev.wharf.protocol.header.AckHeaders.PopMessageRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One pop across the brokers that serve a topic. With one broker it is one request that may wait. With several,
 * it first asks each broker in turn without waiting (from a rotating start) and returns the first messages found;
 * when none has any and the pop may wait, it asks all of them at once to wait, takes the first answer with
 * messages and gives back, uncounted, whatever the others hand out later. Single use.
 */
final class PopAttempt {

    /** One broker to ask. */
    record Target(String brokerName, String address) {
    }

    private final AckApi api;
    private final List<Target> targets;
    private final Function<Long, PopMessageRequest> header;
    private final long pollTime;
    private final long timeoutMillis;
    private final Predicate<MessageExt> matches;
    private final Consumer<List<PoppedMessage>> giveBack;
    private final Consumer<List<PoppedMessage>> skip;
    private final CompletableFuture<PopResult> result;
    private final List<ClientException> failures = new ArrayList<>();

    /**
     * @param header   the request for a given poll time
     * @param matches  the client's re-check of a message against the selector (tag hash collisions)
     * @param giveBack releases messages this pop cannot hand to its caller (uncounted)
     * @param skip     finishes messages the re-check rejected, for pops that skip what does not match
     * @param result   completed with the messages, or with none when nothing came in time
     */
    PopAttempt(AckApi api, List<Target> targets, Function<Long, PopMessageRequest> header, long pollTime,
               long timeoutMillis, Predicate<MessageExt> matches, Consumer<List<PoppedMessage>> giveBack,
               Consumer<List<PoppedMessage>> skip, CompletableFuture<PopResult> result) {
        this.api = api;
        this.targets = targets;
        this.header = header;
        this.pollTime = pollTime;
        this.timeoutMillis = timeoutMillis;
        this.matches = matches;
        this.giveBack = giveBack;
        this.skip = skip;
        this.result = result;
    }

    void run() {
        if (targets.size() == 1) {
            waitOnAll(pollTime);
        } else {
            sweep(0);
        }
    }

    /** Asks broker {@code i} without waiting; moves on to the next when it has nothing. */
    private void sweep(int i) {
        if (result.isDone()) {
            return;
        }
        if (i == targets.size()) {
            if (pollTime > 0) {
                synchronized (this) {
                    failures.clear(); // the waiting round decides whether every broker failed
                }
                waitOnAll(pollTime);
            } else {
                finishEmpty();
            }
            return;
        }
        Target target = targets.get(i);
        api.popAsync(target.address(), target.brokerName(), header.apply(0L), timeoutMillis)
                .whenComplete((reply, error) -> {
                    if (error != null) {
                        failed(error);
                        sweep(i + 1);
                    } else if (!deliver(reply)) {
                        sweep(i + 1);
                    }
                });
    }

    /** Asks every broker to wait up to {@code poll}; the first with messages wins. */
    private void waitOnAll(long poll) {
        AtomicInteger outstanding = new AtomicInteger(targets.size());
        for (Target target : targets) {
            api.popAsync(target.address(), target.brokerName(), header.apply(poll), timeoutMillis)
                    .whenComplete((reply, error) -> {
                        if (error != null) {
                            failed(error);
                        } else {
                            deliver(reply);
                        }
                        if (outstanding.decrementAndGet() == 0) {
                            finishEmpty();
                        }
                    });
        }
    }

    /**
     * Hands a broker's answer to the caller, or gives its messages back when the caller already has an answer.
     *
     * @return whether the answer had messages
     */
    private boolean deliver(AckApi.Reply reply) {
        if (!reply.found() || reply.messages().isEmpty()) {
            return false;
        }
        List<PoppedMessage> wanted = new ArrayList<>(reply.messages().size());
        List<PoppedMessage> rejected = new ArrayList<>(0);
        long invisibleTime = header.apply(0L).invisibleTime();
        for (int i = 0; i < reply.messages().size(); i++) {
            MessageExt stored = reply.messages().get(i);
            PoppedMessage m = PoppedMessage.of(stored, reply.deliveryCounts()[i], reply.popTime(), invisibleTime);
            (matches.test(stored) ? wanted : rejected).add(m);
        }
        if (!rejected.isEmpty()) {
            skip.accept(rejected);
        }
        if (wanted.isEmpty()) {
            return false;
        }
        if (!result.complete(new PopResult(PopStatus.FOUND, wanted))) {
            giveBack.accept(wanted);
        }
        return true;
    }

    private synchronized void failed(Throwable error) {
        failures.add(RemotingCalls.asClientException(error));
    }

    private void finishEmpty() {
        synchronized (this) {
            if (!failures.isEmpty() && failures.size() >= targets.size()) {
                ClientException first = failures.get(0);
                for (int i = 1; i < failures.size(); i++) {
                    first.addSuppressed(failures.get(i));
                }
                result.completeExceptionally(first);
                return;
            }
        }
        result.complete(PopResult.NONE);
    }
}
