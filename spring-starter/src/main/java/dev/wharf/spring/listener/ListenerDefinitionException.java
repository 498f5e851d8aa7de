package dev.wharf.spring.listener;

import java.lang.reflect.Method;
import java.util.StringJoiner;
import org.springframework.beans.factory.BeanInitializationException;

/**
 * A {@code @MessageListener} that cannot work as written: names the bean, the method and the attribute (or
 * parameter), the value, and what to do. Thrown at start-up, so the application does not start.
 */
public final class ListenerDefinitionException extends BeanInitializationException {

    private static final long serialVersionUID = 1L;

    private final String attribute;

    ListenerDefinitionException(String beanName, Method method, String attribute, Object value, String reason) {
        super("@MessageListener on " + describe(beanName, method) + ": " + attribute
                + (value == null ? "" : " = " + quote(value)) + " - " + reason);
        this.attribute = attribute;
    }

    /** The attribute or parameter that is wrong. */
    public String attribute() {
        return attribute;
    }

    static String describe(String beanName, Method method) {
        StringJoiner params = new StringJoiner(", ", "(", ")");
        for (Class<?> p : method.getParameterTypes()) {
            params.add(p.getSimpleName());
        }
        return method.getDeclaringClass().getSimpleName() + "." + method.getName() + params + " of bean '" + beanName
                + "'";
    }

    private static String quote(Object value) {
        return value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
    }
}
