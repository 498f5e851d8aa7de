package dev.wharf.broker.config;

import java.util.List;

/**
 * How the broker registers with its NameServers (which ones is {@code namesrvAddr} of {@link BrokerConfig}): how
 * often, and how long one registration may take.
 */
public class RegistrationConfig {

    /** How often the broker registers with every NameServer, in milliseconds. */
    private int registerNameServerPeriod = 30_000;
    /** How long one registration may take, in milliseconds. */
    private int registerBrokerTimeoutMills = 6_000;

    /** Adds a sentence to {@code errors} for each bad setting, naming the key and what is allowed. */
    public void validate(List<String> errors) {
        ConfigChecks.range(errors, "registerNameServerPeriod", registerNameServerPeriod, 1_000, 60_000);
        ConfigChecks.range(errors, "registerBrokerTimeoutMills", registerBrokerTimeoutMills, 100, 60_000);
    }

    public int getRegisterNameServerPeriod() {
        return registerNameServerPeriod;
    }

    public void setRegisterNameServerPeriod(int registerNameServerPeriod) {
        this.registerNameServerPeriod = registerNameServerPeriod;
    }

    public int getRegisterBrokerTimeoutMills() {
        return registerBrokerTimeoutMills;
    }

    public void setRegisterBrokerTimeoutMills(int registerBrokerTimeoutMills) {
        this.registerBrokerTimeoutMills = registerBrokerTimeoutMills;
    }
}
