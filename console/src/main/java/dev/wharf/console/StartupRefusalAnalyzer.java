package dev.wharf.console;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns a {@link StartupRefusal} into Spring Boot's "APPLICATION FAILED TO START" report, without a stack trace. */
public class StartupRefusalAnalyzer extends AbstractFailureAnalyzer<StartupRefusal> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, StartupRefusal cause) {
        return new FailureAnalysis(cause.problem(), cause.action(), cause);
    }
}
