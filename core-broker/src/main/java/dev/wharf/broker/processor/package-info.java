/**
 * The broker's request processors, one per family of request codes, and the send path's extension point
 * ({@link dev.wharf.broker.processor.PutMessageHook}).
 */
package dev.wharf.broker.processor;
