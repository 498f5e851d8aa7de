/** Administration over the NameServer and the brokers: topics, cluster, consumer progress, offset reset, queries. */
package dev.wharf.client.admin;
