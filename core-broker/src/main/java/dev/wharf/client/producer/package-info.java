/**
 * The producer: sync (with retries on another broker), async (bounded in-flight), one-way, to a chosen queue
 * (selector or explicit), and batch sends. Every message gets a client unique id before its first attempt, so
 * a retried message that was in fact stored twice can be recognised by consumers.
 */
package dev.wharf.client.producer;
