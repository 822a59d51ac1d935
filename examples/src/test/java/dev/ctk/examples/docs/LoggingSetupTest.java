package dev.ctk.examples.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The logging setup that docs/troubleshooting.md ("Seeing logs") shows: {@code logging-dependency.xml} is the
 * dependency a consumer adds, {@code simplelogger.properties} the file it puts in {@code src/test/resources}. Both
 * live beside this test, which checks that ctk's BOM manages the dependency and that slf4j-simple, given that file,
 * logs Java Operator SDK and ctk at debug and the rest at info.
 */
class LoggingSetupTest {

  private static final Path HERE = DocsSnippetsTest.repositoryRoot()
      .resolve("examples/src/test/java/dev/ctk/examples/docs");

  @Test
  void the_dependency_has_no_version_because_ctks_bom_manages_it() throws Exception {
    // GIVEN
    Element dependency = parse(HERE.resolve("logging-dependency.xml")).getDocumentElement();
    Document bom = parse(DocsSnippetsTest.repositoryRoot().resolve("pom.xml"));
    // WHEN
    String groupId = text(dependency, "groupId");
    String artifactId = text(dependency, "artifactId");
    List<String> managed = new ArrayList<>();
    NodeList managedDependencies = ((Element) bom.getElementsByTagName("dependencyManagement").item(0))
        .getElementsByTagName("dependency");
    for (int i = 0; i < managedDependencies.getLength(); i++) {
      Element d = (Element) managedDependencies.item(i);
      managed.add(text(d, "groupId") + ":" + text(d, "artifactId") + ":" + text(d, "version"));
    }
    // THEN
    assertThat(dependency.getElementsByTagName("version").getLength()).isZero();
    assertThat(text(dependency, "scope")).isEqualTo("test");
    assertThat(managed).anySatisfy(m -> assertThat(m).startsWith(groupId + ":" + artifactId + ":").doesNotEndWith(":"));
    assertThat(Class.forName("org.slf4j.simple.SimpleLogger")).isNotNull();
  }

  @Test
  void slf4j_simple_logs_josdk_and_ctk_at_debug_and_the_rest_at_info(@TempDir Path classpath) throws Exception {
    // GIVEN slf4j-api and slf4j-simple alone in a class loader, with the file at the root of its class path
    Files.copy(HERE.resolve("simplelogger.properties"), classpath.resolve("simplelogger.properties"));
    URL[] urls = {classpath.toUri().toURL(), jarOf(org.slf4j.LoggerFactory.class),
        jarOf(Class.forName("org.slf4j.simple.SimpleLogger"))};
    ClassLoader before = Thread.currentThread().getContextClassLoader();
    try (URLClassLoader loader = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader())) {
      Thread.currentThread().setContextClassLoader(loader);
      Method getLogger = loader.loadClass("org.slf4j.LoggerFactory").getMethod("getLogger", String.class);
      Class<?> logger = loader.loadClass("org.slf4j.Logger");
      Method debug = logger.getMethod("isDebugEnabled");
      Method info = logger.getMethod("isInfoEnabled");
      // WHEN / THEN (the logger names are classes on this test class path)
      for (Class<?> type : List.of(io.javaoperatorsdk.operator.Operator.class, dev.ctk.controller.Controller.class,
          dev.ctk.envtest.SharedApiServers.class)) {
        Object log = getLogger.invoke(null, type.getName());
        assertThat((boolean) debug.invoke(log)).as("%s at debug", type.getName()).isTrue();
      }
      Object fabric8 = getLogger.invoke(null, io.fabric8.kubernetes.client.KubernetesClient.class.getName());
      assertThat((boolean) debug.invoke(fabric8)).as("fabric8 at debug").isFalse();
      assertThat((boolean) info.invoke(fabric8)).as("fabric8 at info").isTrue();
    } finally {
      Thread.currentThread().setContextClassLoader(before);
    }
  }

  private static URL jarOf(Class<?> type) throws IOException {
    return type.getProtectionDomain().getCodeSource().getLocation();
  }

  private static Document parse(Path file) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return factory.newDocumentBuilder().parse(file.toFile());
  }

  private static String text(Element element, String tag) {
    NodeList nodes = element.getElementsByTagName(tag);
    return nodes.getLength() == 0 ? "" : nodes.item(0).getTextContent().strip();
  }
}
