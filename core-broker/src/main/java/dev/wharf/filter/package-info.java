/**
 * JMS message selectors: the SQL92 subset of the Jakarta Messaging specification ("Message selector").
 *
 * <p>{@link dev.wharf.filter.SelectorParser#parse(String)} checks a selector once and compiles it into an
 * immutable tree of small evaluator nodes; the resulting {@link dev.wharf.filter.Selector} is then evaluated
 * against a message's properties by the broker (server-side filtering), by the client (re-check) and is
 * used by the JMS provider to reject a bad selector when a consumer is created. The package is pure JDK and
 * depends on nothing else of Wharf, so every layer can use it.
 */
package dev.wharf.filter;
