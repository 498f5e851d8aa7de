/**
 * The JmsTemplate sample: a billing application in the style of an existing Spring one, sending with
 * {@link org.springframework.jms.core.JmsTemplate} (a text message, an object as JSON through a message converter, a
 * request whose reply comes back on a temporary queue) and receiving with it.
 * {@link dev.wharf.samples.jmstemplate.JmsTemplateSampleApplication} runs it once and prints what went where.
 */
package dev.wharf.samples.jmstemplate;
