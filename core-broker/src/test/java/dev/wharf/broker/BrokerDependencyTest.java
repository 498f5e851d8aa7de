package dev.wharf.broker;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The broker's rooms depend on each other without cycles, and none reaches back to the wiring class. */
class BrokerDependencyTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.wharf.broker");
    }

    @Test
    void noCyclesBetweenBrokerRooms() {
        slices().matching("dev.wharf.broker.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void subPackagesDoNotUseTheWiring() {
        noClasses().that().resideInAPackage("dev.wharf.broker.(*)..")
                .should().dependOnClassesThat().resideInAPackage("dev.wharf.broker")
                .check(classes);
    }

    @Test
    void theBrokerDoesNotUseNettyDirectly() {
        noClasses().that().resideInAPackage("dev.wharf.broker..")
                .should().dependOnClassesThat().resideInAnyPackage("io.netty..")
                .check(classes);
    }
}
