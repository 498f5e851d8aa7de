/**
 * The machinery behind {@link dev.wharf.spring.annotation.MessageListener}: the bean post-processor that finds the
 * annotated methods and checks their attributes at start-up, the registry of listener containers (one push consumer
 * each, started after the context is ready and stopped gracefully), and the invoker that converts each message into
 * the method's arguments, turns an exception into a retry and a return value into a reply.
 */
package dev.wharf.spring.listener;
