/**
 * Message and destination implementations of an imaginary other provider, written against the jakarta.jms
 * interfaces only: what a Jakarta Messaging provider must accept from an application (3.12). They are strict
 * where the interfaces leave room (an absent property is an error, byte correlation ids are refused, a bytes
 * message must be reset before it is read), so a provider that relies on more than the interfaces fails.
 */
package dev.wharf.jms.it.foreign;
