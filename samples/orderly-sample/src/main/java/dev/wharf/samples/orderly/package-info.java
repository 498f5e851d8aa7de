/**
 * The orderly sample: Wharf's RocketMQ-style Spring API. {@link dev.wharf.samples.orderly.SampleRunner} sends each
 * order's steps with {@code WharfTemplate.syncSendOrderly} keyed by order id from several threads at once, and
 * price updates; {@link dev.wharf.samples.orderly.SampleListeners} has an ORDERLY listener that checks each order's
 * steps arrive in order, a BROADCASTING listener that every instance gets every update on, and a CLUSTERING one on
 * the same topic whose updates the instances share. The run starts a second instance of the application beside the
 * first to show the difference.
 */
package dev.wharf.samples.orderly;
