package dev.wharf.client.it;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.producer.LocalTransaction;
import dev.wharf.client.producer.LocalTransactionState;
import dev.wharf.client.producer.TransactionListener;
import dev.wharf.client.producer.TransactionProducer;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A transaction producer in its own process, for the kill test: sends the messages of one transaction, records
 * the transaction as committed in its "database" (a file), prints "READY id" and waits to be killed without ever
 * sending END_TRANSACTION. Arguments: namesrvAddr group topic instanceName databaseFile messageCount.
 */
public final class TransactionalProducerMain {

    private TransactionalProducerMain() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        Path database = Path.of(args[4]);
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(args[0]);
        config.setInstanceName(args[3]);
        TransactionProducer producer = new TransactionProducer(args[1], config);
        producer.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                return LocalTransactionState.UNKNOW;
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                return LocalTransactionState.UNKNOW; // never reached: the process dies first
            }
        });
        producer.start();
        LocalTransaction tx = producer.beginTransaction();
        int count = Integer.parseInt(args[5]);
        for (int i = 0; i < count; i++) {
            tx.send(new Message(args[2], ("child-" + i).getBytes(StandardCharsets.UTF_8)));
        }
        // the local transaction commits; the process dies before it can tell the broker
        Files.writeString(database, tx.transactionId() + System.lineSeparator(), StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        out.println("READY " + tx.transactionId());
        Thread.currentThread().join();
    }
}
