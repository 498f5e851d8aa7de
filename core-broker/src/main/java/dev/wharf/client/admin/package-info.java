/**
 * Administration over the NameServer and the brokers: topics, cluster, consumer progress, offset reset, queries, and
 * dead-letter queues (list and resend).
 */
package dev.wharf.client.admin;
