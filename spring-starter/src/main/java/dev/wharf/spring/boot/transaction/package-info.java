/**
 * Messages that commit with the application's database transaction: the transacted JmsTemplate, the recorder that
 * writes each Wharf transaction id in the database transaction that sends it, and the check-back answer read from
 * that table. See {@link dev.wharf.spring.boot.transaction.DatabaseTransactionChecker} for the rule.
 */
package dev.wharf.spring.boot.transaction;
