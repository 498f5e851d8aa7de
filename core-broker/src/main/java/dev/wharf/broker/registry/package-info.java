/** Registration of the broker and its topics with every NameServer: periodic, on topic changes, and at shutdown. */
package dev.wharf.broker.registry;
