/**
 * Half-message transactions with check-back.
 *
 * <p>A producer sends each message of a transaction with TRAN_MSG=true and the transaction id; the send hook
 * stores it as a half message in RMQ_SYS_TRANS_HALF_TOPIC (queue 0), invisible to consumers. END_TRANSACTION then
 * commits or rolls back every half of the id at once. A commit is ONE atomic store batch holding the real messages
 * and the op records (RMQ_SYS_TRANS_OP_HALF_TOPIC) that mark the halves done: after a crash both are there or
 * neither is, so a transaction is never half committed and never committed twice. In memory, the
 * {@code TransactionIndex} maps transaction ids to their halves; ended ids are remembered (bounded), and every
 * decision on one id runs under a lock striped on it, so a retried END_TRANSACTION or a check-back answer racing
 * the producer's own finds the outcome and writes nothing.
 *
 * <p>The check-back service asks a live producer of the group about transactions left open longer than
 * transactionTimeOut, and discards them (copies in TRANS_CHECK_MAX_TIME_TOPIC) after transactionCheckMax checks.
 * The half topic is read incrementally; the check progress (lowest half of a still-open transaction) and the
 * check counts are persisted in {@code config/transactionCheckProgress.json}, which bounds the rebuild on restart.
 */
package dev.wharf.broker.transaction;
