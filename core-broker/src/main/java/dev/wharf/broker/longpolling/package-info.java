/**
 * Long polling: pulls that find no message are held per topic and queue until the store reports a new
 * message for that queue or the pull's suspend time runs out.
 */
package dev.wharf.broker.longpolling;
