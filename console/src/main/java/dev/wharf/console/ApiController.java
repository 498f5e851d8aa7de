package dev.wharf.console;

import dev.wharf.client.admin.AdminClient;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.TopicValidator;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageId;
import dev.wharf.protocol.body.Stats;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The console's JSON API, which the pages draw. Destructive calls (delete a topic, reset offsets, resend dead
 * letters) need {@code confirm} set to the name of what they act on, and are written to the audit log.
 */
@RestController
@RequestMapping("/api")
public class ApiController {

    private static final int MAX_MESSAGES = 200;

    private final ClusterGateway cluster;
    private final RateSampler rates;
    private final AuditLog audit;
    private final ConsoleSettings settings;

    public ApiController(ClusterGateway cluster, RateSampler rates, AuditLog audit, ConsoleSettings settings) {
        this.cluster = cluster;
        this.rates = rates;
        this.audit = audit;
        this.settings = settings;
    }

    record CreateTopic(String topic, Integer queues) {
    }

    record ResetOffset(String topic, String to, String confirm) {
    }

    record Resend(String msgId, Boolean all, String confirm) {
    }

    // ------------------------------------------------------------------ cluster

    @GetMapping("/cluster")
    public Map<String, Object> cluster() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("namesrv", settings.namesrv());
        out.put("now", System.currentTimeMillis());
        out.put("brokers", cluster.brokers());
        return out;
    }

    // ------------------------------------------------------------------ topics

    @GetMapping("/topics")
    public List<Map<String, String>> topics() {
        List<Map<String, String>> out = new ArrayList<>();
        for (String name : cluster.topicNames()) {
            out.add(Map.of("name", name, "kind", ClusterGateway.kindOf(name)));
        }
        return out;
    }

    @GetMapping("/topics/{topic}")
    public Map<String, Object> topic(@PathVariable String topic) {
        checkTopic(topic);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("topic", cluster.topic(topic));
        out.put("messages", cluster.endOffsetSum(topic));
        out.put("rate", rates.topicRate(topic));
        out.put("sampleIntervalMillis", settings.sampleInterval().toMillis());
        return out;
    }

    @PostMapping("/topics")
    public Map<String, Object> createTopic(@RequestBody CreateTopic body, HttpServletRequest request) {
        String topic = body == null ? null : body.topic();
        checkTopic(topic);
        int queues = body.queues() == null ? 8 : body.queues();
        if (queues < 1 || queues > 1024) {
            throw ConsoleException.badRequest("A topic needs 1 to 1024 queues, not " + queues + ".");
        }
        cluster.createTopic(topic, queues);
        audit.record(request, "create topic " + topic, queues + " queue(s)");
        return Map.of("created", topic, "queues", queues);
    }

    @DeleteMapping("/topics/{topic}")
    public Map<String, Object> deleteTopic(@PathVariable String topic, @RequestParam(required = false) String confirm,
                                           HttpServletRequest request) {
        checkTopic(topic);
        confirm(topic, confirm, "topic");
        cluster.deleteTopic(topic);
        audit.record(request, "delete topic " + topic, "deleted");
        return Map.of("deleted", topic);
    }

    // ------------------------------------------------------------------ groups

    @GetMapping("/groups")
    public List<String> groups() {
        return cluster.groups();
    }

    @GetMapping("/groups/{group}")
    public Map<String, Object> group(@PathVariable String group) {
        checkGroup(group);
        List<Map<String, Object>> queues = new ArrayList<>();
        long total = 0;
        for (Stats.QueueProgress q : cluster.progress(group)) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("topic", q.mq().topic());
            row.put("broker", q.mq().brokerName());
            row.put("queueId", q.mq().queueId());
            row.put("brokerOffset", q.brokerOffset());
            row.put("consumerOffset", q.consumerOffset());
            row.put("lag", q.lag());
            row.put("lastTimestamp", q.lastTimestamp());
            queues.add(row);
            total += q.lag();
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("group", group);
        out.put("lag", total);
        out.put("queues", queues);
        out.put("lagHistory", rates.groupLag(group));
        return out;
    }

    @PostMapping("/groups/{group}/reset")
    public Map<String, Object> reset(@PathVariable String group, @RequestBody ResetOffset body,
                                     HttpServletRequest request) {
        checkGroup(group);
        if (body == null || body.topic() == null || body.topic().isBlank()) {
            throw ConsoleException.badRequest("Name the topic whose offsets to reset.");
        }
        checkTopic(body.topic());
        long to = resetTarget(body.to());
        confirm(group, body.confirm(), "group");
        List<Stats.QueueOffset> offsets = cluster.resetOffset(group, body.topic(), to);
        audit.record(request, "reset offsets of " + group + " on " + body.topic() + " to " + body.to(),
                offsets.size() + " queue(s) moved");
        return Map.of("group", group, "topic", body.topic(), "offsets", offsets);
    }

    /** "earliest", "latest", an ISO-8601 instant or epoch milliseconds. */
    static long resetTarget(String to) {
        if (to == null || to.isBlank()) {
            throw ConsoleException.badRequest("Say where to reset to: earliest, latest, a time such as"
                    + " 2026-11-29T10:00:00Z, or epoch milliseconds.");
        }
        String t = to.trim();
        switch (t.toLowerCase(Locale.ROOT)) {
            case "earliest" -> {
                return AdminClient.EARLIEST;
            }
            case "latest" -> {
                return AdminClient.LATEST;
            }
            default -> {
                return time(t, "to");
            }
        }
    }

    private static long time(String value, String name) {
        try {
            if (value.chars().allMatch(Character::isDigit)) {
                return Long.parseLong(value);
            }
            long millis = Instant.parse(value).toEpochMilli();
            if (millis < 0) {
                throw ConsoleException.badRequest(name + " \"" + value + "\" is before 1970.");
            }
            return millis;
        } catch (DateTimeParseException | NumberFormatException e) {
            throw ConsoleException.badRequest(name + " \"" + value + "\" is not a time: give earliest, latest, an ISO"
                    + " time such as 2026-11-29T10:00:00Z, or epoch milliseconds.");
        }
    }

    // ------------------------------------------------------------------ messages

    @GetMapping("/messages")
    public List<MessageView> byKey(@RequestParam String topic, @RequestParam String key) {
        checkTopic(topic);
        if (key.isBlank()) {
            throw ConsoleException.badRequest("Give a message key (or a message id) to look for.");
        }
        return views(cluster.byKey(topic, key.trim(), MAX_MESSAGES));
    }

    @GetMapping("/messages/range")
    public List<MessageView> byTime(@RequestParam String topic, @RequestParam String from, @RequestParam String to,
                                    @RequestParam(defaultValue = "50") int max) {
        checkTopic(topic);
        long f = time(from.trim(), "from");
        long t = time(to.trim(), "to");
        if (t < f) {
            throw ConsoleException.badRequest("The range ends (" + to + ") before it starts (" + from + ").");
        }
        if (max < 1 || max > MAX_MESSAGES) {
            throw ConsoleException.badRequest("max must be 1 to " + MAX_MESSAGES + ", not " + max + ".");
        }
        return views(cluster.byTime(topic, f, t, max));
    }

    @GetMapping("/messages/id/{id}")
    public MessageView byId(@PathVariable String id, @RequestParam(required = false) String topic) {
        return MessageView.of(find(id, topic));
    }

    /** A message by broker id, or by producer id within a topic; 400 for an id of neither form. */
    private MessageExt find(String id, String topic) {
        String trimmed = id.trim();
        if (MessageId.isValid(trimmed)) {
            try {
                return cluster.byOffsetId(trimmed);
            } catch (ConsoleException e) {
                if (topic == null || topic.isBlank()) {
                    throw e;
                }
            }
        }
        if (topic == null || topic.isBlank()) {
            throw ConsoleException.badRequest("\"" + trimmed + "\" is not a broker message id (" + MessageId.LENGTH
                    + " hexadecimal characters); to find a producer's message id, also give its topic.");
        }
        checkTopic(topic);
        if (!trimmed.matches("[0-9A-Fa-f]{16,64}")) {
            throw ConsoleException.badRequest("\"" + trimmed + "\" is not a message id: ids are hexadecimal, as"
                    + " printed by send and query.");
        }
        List<MessageExt> found = cluster.byKey(topic, trimmed, 1);
        if (found.isEmpty()) {
            throw new ConsoleException(404, "No message of topic " + topic + " has the id " + trimmed + ".");
        }
        return found.get(0);
    }

    /** Where the message went: sent, stored, which groups consumed it, retries and dead letters. */
    @GetMapping("/messages/trace")
    public Map<String, Object> trace(@RequestParam String id, @RequestParam(required = false) String topic) {
        MessageExt m = find(id, topic);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("message", MessageView.of(m));
        List<Map<String, Object>> steps = new ArrayList<>();
        steps.add(step("sent", m.getBornTimestamp(), "by " + MessageView.of(m).bornHost()));
        steps.add(step("stored", m.getStoreTimestamp(), "on " + m.getBrokerName() + ", queue " + m.getQueueId()
                + " at offset " + m.getQueueOffset()));
        String uniq = m.getMsgId();
        for (String group : cluster.groups()) {
            for (Stats.QueueProgress q : cluster.progress(group)) {
                if (q.mq().topic().equals(m.getTopic()) && q.mq().queueId() == m.getQueueId()
                        && (m.getBrokerName() == null || m.getBrokerName().equals(q.mq().brokerName()))) {
                    boolean consumed = q.consumerOffset() > m.getQueueOffset();
                    steps.add(step(consumed ? "delivered" : "waiting", consumed ? q.lastTimestamp() : 0,
                            (consumed ? "consumed by group " : "not yet consumed by group ") + group));
                }
            }
            int retries = count(SystemTopics.retryTopic(group), uniq);
            if (retries > 0) {
                steps.add(step("retried", 0, retries + " time(s) by group " + group));
            }
            if (count(SystemTopics.dlqTopic(group), uniq) > 0) {
                steps.add(step("dead-lettered", 0, "to " + SystemTopics.dlqTopic(group)));
            }
        }
        out.put("steps", steps);
        return out;
    }

    private int count(String topic, String uniq) {
        if (uniq == null) {
            return 0;
        }
        try {
            return cluster.byKey(topic, uniq, 32).size();
        } catch (ConsoleException e) {
            return 0; // no such retry or dead-letter topic: never retried there
        }
    }

    private static Map<String, Object> step(String what, long time, String detail) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("step", what);
        s.put("time", time);
        s.put("detail", detail);
        return s;
    }

    // ------------------------------------------------------------------ dead letters

    @GetMapping("/dlq/{group}")
    public List<MessageView> deadLetters(@PathVariable String group) {
        checkGroup(group);
        return views(cluster.deadLetters(group, MAX_MESSAGES));
    }

    @PostMapping("/dlq/{group}/resend")
    public Map<String, Object> resend(@PathVariable String group, @RequestBody Resend body,
                                      HttpServletRequest request) {
        checkGroup(group);
        boolean all = body != null && Boolean.TRUE.equals(body.all());
        String msgId = body == null ? null : body.msgId();
        if (!all && (msgId == null || msgId.isBlank())) {
            throw ConsoleException.badRequest("Give the id of the dead letter to resend, or all=true.");
        }
        confirm(group, body.confirm(), "group");
        int resent = cluster.resend(group, all ? null : msgId.trim());
        audit.record(request, "resend dead letters of " + group + (all ? " (all)" : " (" + msgId + ")"),
                resent + " resent");
        return Map.of("group", group, "resent", resent);
    }

    // ------------------------------------------------------------------ checks

    private static List<MessageView> views(List<MessageExt> messages) {
        return messages.stream().map(MessageView::of).toList();
    }

    private static void confirm(String name, String confirm, String what) {
        if (confirm == null || !confirm.equals(name)) {
            throw ConsoleException.badRequest("This cannot be undone: confirm by giving the " + what + "'s name (\""
                    + name + "\") as confirm.");
        }
    }

    private static void checkTopic(String topic) {
        String error = TopicValidator.check(topic);
        if (error != null) {
            throw ConsoleException.badRequest(error);
        }
    }

    private static void checkGroup(String group) {
        String error = TopicValidator.checkGroup(group);
        if (error != null) {
            throw ConsoleException.badRequest(error);
        }
    }
}
