package dev.wharf.jms.message;

import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageEOFException;
import jakarta.jms.Queue;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.Topic;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Another provider's message and destination implementations, built as dynamic proxies over plain maps: the
 * codec must handle messages whose classes it does not know, through the interfaces only.
 */
final class ForeignMessage implements InvocationHandler {

    final Map<String, Object> headers = new HashMap<>();
    final Map<String, Object> properties = new LinkedHashMap<>();
    final Object body;
    int position;
    int resets;

    private ForeignMessage(Object body) {
        this.body = body;
    }

    static <T extends Message> T create(Class<T> type, Object body) {
        ForeignMessage handler = new ForeignMessage(body);
        return type.cast(Proxy.newProxyInstance(ForeignMessage.class.getClassLoader(), new Class<?>[] {type},
                handler));
    }

    static ForeignMessage handler(Message m) {
        return (ForeignMessage) Proxy.getInvocationHandler(m);
    }

    static Queue queue(String name) {
        return destination(Queue.class, name);
    }

    static Topic topic(String name) {
        return destination(Topic.class, name);
    }

    static TemporaryQueue temporaryQueue(String name) {
        return destination(TemporaryQueue.class, name);
    }

    /** A destination that is neither a queue nor a topic. */
    static Destination plainDestination() {
        return (Destination) Proxy.newProxyInstance(ForeignMessage.class.getClassLoader(),
                new Class<?>[] {Destination.class}, (p, m, a) -> m.getName().equals("toString") ? "odd" : null);
    }

    private static <T extends Destination> T destination(Class<T> type, String name) {
        return type.cast(Proxy.newProxyInstance(ForeignMessage.class.getClassLoader(), new Class<?>[] {type},
                (p, m, a) -> switch (m.getName()) {
                    case "getQueueName", "getTopicName", "toString" -> name;
                    case "hashCode" -> name.hashCode();
                    case "equals" -> p == a[0];
                    default -> throw new AssertionError("unexpected call " + m.getName());
                }));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        switch (name) {
            case "toString":
                return "ForeignMessage" + headers;
            case "hashCode":
                return System.identityHashCode(proxy);
            case "equals":
                return proxy == args[0];
            case "getJMSCorrelationIDAsBytes":
                throw new JMSException("byte correlation ids are not supported by this provider");
            case "getPropertyNames":
                return Collections.enumeration(List.copyOf(properties.keySet()));
            case "getObjectProperty":
                return properties.get((String) args[0]);
            case "propertyExists":
                return properties.containsKey((String) args[0]);
            case "getText":
                return body;
            case "reset":
                position = 0;
                resets++;
                return null;
            case "getBodyLength":
                return (long) ((byte[]) body).length;
            case "readBytes": {
                byte[] data = (byte[]) body;
                byte[] into = (byte[]) args[0];
                if (position >= data.length) {
                    return -1;
                }
                int n = Math.min(into.length, data.length - position);
                System.arraycopy(data, position, into, 0, n);
                position += n;
                return n;
            }
            case "getMapNames":
                return Collections.enumeration(((Map<?, ?>) body).keySet());
            case "getObject":
                return args == null ? body : ((Map<?, ?>) body).get(args[0]);
            case "readObject": {
                List<?> values = (List<?>) body;
                if (position >= values.size()) {
                    throw new MessageEOFException("end");
                }
                return values.get(position++);
            }
            default:
                break;
        }
        if (name.startsWith("set") && name.endsWith("Property")) {
            properties.put((String) args[0], args[1]);
            return null;
        }
        if (name.startsWith("setJMS")) {
            headers.put(name.substring(3), args[0]);
            return null;
        }
        if (name.startsWith("getJMS")) {
            Object v = headers.get(name.substring(3));
            if (v != null) {
                return v;
            }
            Class<?> t = method.getReturnType();
            if (name.equals("getJMSDeliveryMode")) {
                return Message.DEFAULT_DELIVERY_MODE;
            } else if (name.equals("getJMSPriority")) {
                return Message.DEFAULT_PRIORITY;
            } else if (t == long.class) {
                return 0L;
            } else if (t == boolean.class) {
                return false;
            }
            return null;
        }
        throw new AssertionError("The codec called " + name + ", which this foreign message does not expect.");
    }
}
