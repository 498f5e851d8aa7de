package dev.wharf.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Keeps the dependency rules of the architecture true by construction: arrows only point down. */
class PackageDependencyTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.wharf");
    }

    @Test
    void commonDependsOnNothingOfWharf() {
        noClasses().that().resideInAPackage("dev.wharf.common..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "dev.wharf.store..", "dev.wharf.protocol..", "dev.wharf.remoting..", "dev.wharf.namesrv..",
                        "dev.wharf.broker..", "dev.wharf.client..", "dev.wharf.server..", "dev.wharf.filter..")
                .allowEmptyShould(true)
                .check(classes);
    }

    @Test
    void filterIsALeaf() {
        noClasses().that().resideInAPackage("dev.wharf.filter..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "dev.wharf.store..", "dev.wharf.protocol..", "dev.wharf.remoting..", "dev.wharf.namesrv..",
                        "dev.wharf.broker..", "dev.wharf.client..", "dev.wharf.server..")
                .allowEmptyShould(true)
                .check(classes);
    }

    @Test
    void storeKnowsNothingOfNetworkingBrokerOrClient() {
        noClasses().that().resideInAPackage("dev.wharf.store..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "dev.wharf.protocol..", "dev.wharf.remoting..", "dev.wharf.namesrv..", "dev.wharf.broker..",
                        "dev.wharf.client..", "dev.wharf.server..", "io.netty..")
                .allowEmptyShould(true)
                .check(classes);
    }

    @Test
    void protocolIsPlainJava() {
        noClasses().that().resideInAPackage("dev.wharf.protocol..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "dev.wharf.store..", "dev.wharf.remoting..", "dev.wharf.namesrv..", "dev.wharf.broker..",
                        "dev.wharf.client..", "dev.wharf.server..", "io.netty..")
                .allowEmptyShould(true)
                .check(classes);
    }

    @Test
    void remotingDoesNotKnowStoreOrRoles() {
        noClasses().that().resideInAPackage("dev.wharf.remoting..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "dev.wharf.store..", "dev.wharf.namesrv..", "dev.wharf.broker..", "dev.wharf.client..",
                        "dev.wharf.server..")
                .allowEmptyShould(true)
                .check(classes);
    }

    @Test
    void clientWorksAgainstARemoteBrokerAlone() {
        noClasses().that().resideInAPackage("dev.wharf.client..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "dev.wharf.store..", "dev.wharf.broker..", "dev.wharf.namesrv..", "dev.wharf.server..")
                .allowEmptyShould(true)
                .check(classes);
    }

    @Test
    void namesrvAndBrokerDoNotUseEachOtherOrTheServer() {
        noClasses().that().resideInAPackage("dev.wharf.namesrv..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "dev.wharf.store..", "dev.wharf.broker..", "dev.wharf.client..", "dev.wharf.server..")
                .allowEmptyShould(true)
                .check(classes);
        noClasses().that().resideInAPackage("dev.wharf.broker..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "dev.wharf.namesrv..", "dev.wharf.client..", "dev.wharf.server..")
                .allowEmptyShould(true)
                .check(classes);
    }

    @Test
    void controllerUsesOnlyProtocolRemotingAndCommon() {
        noClasses().that().resideInAPackage("dev.wharf.controller..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "dev.wharf.store..", "dev.wharf.broker..", "dev.wharf.namesrv..", "dev.wharf.client..",
                        "dev.wharf.server..", "dev.wharf.filter..")
                .allowEmptyShould(true)
                .check(classes);
        // a broker links only the client side: the server classes stay out of its way
        noClasses().that().resideInAPackage("dev.wharf.controller.client..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "dev.wharf.controller", "dev.wharf.controller.state..", "dev.wharf.controller.elect..",
                        "org.apache.ratis..")
                .allowEmptyShould(true)
                .check(classes);
    }

    @Test
    void metricsSitAboveWhatTheyMeasure() {
        // the store, remoting, broker and NameServer report through observers; only the server attaches metrics
        noClasses().that().resideInAnyPackage("dev.wharf.common..", "dev.wharf.store..", "dev.wharf.protocol..",
                        "dev.wharf.remoting..", "dev.wharf.namesrv..", "dev.wharf.broker..", "dev.wharf.client..",
                        "dev.wharf.controller..", "dev.wharf.filter..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.wharf.metrics..", "io.micrometer..")
                .allowEmptyShould(true)
                .check(classes);
    }

    @Test
    void securityIsPlainJavaOverCommon() {
        noClasses().that().resideInAPackage("dev.wharf.security..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "dev.wharf.store..", "dev.wharf.protocol..", "dev.wharf.remoting..", "dev.wharf.namesrv..",
                        "dev.wharf.broker..", "dev.wharf.client..", "dev.wharf.server..", "dev.wharf.controller..",
                        "io.netty..")
                .allowEmptyShould(true)
                .check(classes);
    }

    @Test
    void noCyclesBetweenTopLevelPackages() {
        slices().matching("dev.wharf.(*)..").should().beFreeOfCycles()
                .allowEmptyShould(true)
                .check(classes);
    }

    @Test
    void noCyclesBetweenStoreRooms() {
        slices().matching("dev.wharf.store.(*)..").should().beFreeOfCycles()
                .allowEmptyShould(true)
                .check(classes);
    }
}
