package dev.wharf.broker.transaction;

import dev.wharf.common.message.Message;
import dev.wharf.store.MessageToStore;

/**
 * Schedules committed messages that carry a delivery delay: a half message keeps its delay properties, is checked
 * when it is sent, and is routed to the scheduler when its transaction commits. The broker's scheduler supplies
 * the implementation, so this package does not depend on it.
 */
public interface DelayRouter {

    /** No scheduler: delays are left as properties. */
    DelayRouter NONE = new DelayRouter() {
        @Override
        public String check(Message msg) {
            return null;
        }

        @Override
        public String route(MessageToStore msg) {
            return null;
        }
    };

    /** Null when the message's delay is acceptable (or absent), else a sentence saying what is wrong. */
    String check(Message msg);

    /** Moves a committed message with a delay to the schedule topic; null when done, else what is wrong. */
    String route(MessageToStore msg);
}
