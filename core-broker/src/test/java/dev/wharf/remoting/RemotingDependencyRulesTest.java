package dev.wharf.remoting;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The protocol stays free of Netty, and remoting free of everything built on top of it. */
class RemotingDependencyRulesTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.wharf.protocol", "dev.wharf.remoting");
    }

    @Test
    void protocolUsesNoNettyAndNoRemoting() {
        noClasses().that().resideInAPackage("dev.wharf.protocol..")
                .should().dependOnClassesThat().resideInAnyPackage("io.netty..", "dev.wharf.remoting..")
                .check(classes);
    }

    @Test
    void remotingKnowsNothingBuiltOnIt() {
        noClasses().that().resideInAPackage("dev.wharf.remoting..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.wharf.store..", "dev.wharf.broker..",
                        "dev.wharf.namesrv..", "dev.wharf.client..", "dev.wharf.server..")
                .check(classes);
    }

    @Test
    void theCodecAndExceptionPackagesDoNotReachBackIntoRemoting() {
        noClasses().that().resideInAnyPackage("dev.wharf.remoting.codec..", "dev.wharf.remoting.exception..")
                .should().dependOnClassesThat().resideInAPackage("dev.wharf.remoting")
                .check(classes);
    }
}
