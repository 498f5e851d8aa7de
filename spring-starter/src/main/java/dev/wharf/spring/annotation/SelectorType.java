package dev.wharf.spring.annotation;

/** How {@link MessageListener#selectorExpression()} picks the messages of the topic. */
public enum SelectorType {
    /** Tags: {@code "*"} for every message, or tags separated by {@code "||"}; filtered by the broker. */
    TAG,
    /** An SQL92 boolean expression over the message properties, evaluated by the broker. */
    SQL92
}
