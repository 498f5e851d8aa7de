/**
 * Annotations of Wharf's RocketMQ-style Spring API: {@link dev.wharf.spring.annotation.MessageListener} on the methods
 * of any bean consumes a topic with the broker's own features (orderly, broadcasting, tag and SQL92 subscriptions,
 * retry limits), which JMS listeners cannot express.
 */
package dev.wharf.spring.annotation;
