/**
 * Broker configuration: {@link dev.wharf.broker.config.BrokerConfig} (RocketMQ key names), the loader of a
 * {@code key=value} file onto the broker, store and network beans, and the atomic JSON files the broker's
 * managers persist their state in.
 */
package dev.wharf.broker.config;
