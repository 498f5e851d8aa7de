/**
 * Who is connected: producer and consumer groups with their members' channels (from heartbeats), consumer
 * subscriptions, per-group settings ({@code config/subscriptionGroup.json}), and the housekeeping that drops
 * clients whose channel closed or that stopped sending heartbeats.
 */
package dev.wharf.broker.group;
