package dev.ctk.controller.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The summary and the whole text of an exception, as whole strings. */
class ThrowableTextTest {

  @Test
  void should_summarise_an_error_by_its_simple_class_name_and_its_whole_first_line() {
    // GIVEN a message of one long line, as a helpful NullPointerException has
    String message = "Cannot invoke \"io.javaoperatorsdk.operator.sample.customresource.WebPageSpec"
        + ".getHtml()\" because the return value of \"io.javaoperatorsdk.operator.sample."
        + "customresource.WebPage.getSpec()\" is null";
    // WHEN
    String summary = ThrowableText.summary(new NullPointerException(message));
    // THEN nothing of it is cut
    assertThat(summary).isEqualTo("NullPointerException: " + message);
  }

  @Test
  void should_summarise_a_multi_line_message_by_its_first_non_blank_line_and_say_that_more_follows() {
    assertThat(ThrowableText.summary(new AssertionError("\nexpected: 1\n but was: 2")))
        .isEqualTo("AssertionError: expected: 1 ...");
    assertThat(ThrowableText.summary(new IllegalStateException("backend down\r\n\n")))
        .isEqualTo("IllegalStateException: backend down");
    assertThat(ThrowableText.summary(new IllegalStateException())).isEqualTo("IllegalStateException");
    assertThat(ThrowableText.summary(new IllegalStateException(" \n "))).isEqualTo("IllegalStateException");
  }

  @Test
  void should_summarise_an_api_error_by_its_code_reason_and_status_message() {
    // GIVEN
    KubernetesClientException conflict = new KubernetesClientException(new StatusBuilder().withCode(409)
        .withReason("Conflict").withMessage("Operation cannot be fulfilled on configmaps \"web\": the "
            + "object has been modified; please apply your changes to the latest version and try again")
        .build());
    // THEN
    assertThat(ThrowableText.summary(conflict)).isEqualTo("409 Conflict: Operation cannot be fulfilled on "
        + "configmaps \"web\": the object has been modified; please apply your changes to the latest "
        + "version and try again");
    assertThat(ThrowableText.summary(new KubernetesClientException("no status, just text")))
        .isEqualTo("KubernetesClientException: no status, just text");
  }

  @Test
  void should_give_every_line_of_every_message_the_cause_chain_and_each_stack_frame_once() {
    // GIVEN a reconcile error with a two-level cause chain and a long multi-line message
    IOException root = error(new IOException("connection reset"),
        frame("sun.nio.ch.SocketDispatcher", "read0", 47),
        frame("com.example.Backend", "call", 88),
        frame("com.example.WebReconciler", "reconcile", 42),
        frame("dev.ctk.controller.ReconcileWorker", "process", 120));
    IllegalStateException middle = error(new IllegalStateException("backend call failed", root),
        frame("com.example.Backend", "call", 91),
        frame("com.example.WebReconciler", "reconcile", 42),
        frame("dev.ctk.controller.ReconcileWorker", "process", 120));
    RuntimeException top = error(new RuntimeException("reconcile of default/web failed:\n"
        + "  desired: 3 replicas\n  actual: 1 replica", middle),
        frame("com.example.WebReconciler", "reconcile", 44),
        frame("dev.ctk.controller.ReconcileWorker", "process", 120));
    // WHEN
    String text = ThrowableText.full(top);
    // THEN
    assertThat(text).isEqualTo("""
        java.lang.RuntimeException: reconcile of default/web failed:
          desired: 3 replicas
          actual: 1 replica
        \tat com.example.WebReconciler.reconcile(WebReconciler.java:44)
        \tat dev.ctk.controller.ReconcileWorker.process(ReconcileWorker.java:120)
        Caused by: java.lang.IllegalStateException: backend call failed
        \tat com.example.Backend.call(Backend.java:91)
        \tat com.example.WebReconciler.reconcile(WebReconciler.java:42)
        \t... 1 more
        Caused by: java.io.IOException: connection reset
        \tat sun.nio.ch.SocketDispatcher.read0(SocketDispatcher.java:47)
        \tat com.example.Backend.call(Backend.java:88)
        \t... 2 more""");
  }

  @Test
  void should_not_repeat_the_message_of_a_cause_that_the_exception_above_quotes_whole() {
    // GIVEN a wrapper whose message is its cause's text, as new RuntimeException(cause) makes it
    IllegalStateException cause = error(new IllegalStateException("boom\nsecond line"),
        frame("com.example.Web", "reconcile", 7));
    RuntimeException wrapper = error(new RuntimeException(cause), frame("com.example.Framework", "run", 3));
    // WHEN
    String text = ThrowableText.full(wrapper);
    // THEN
    assertThat(text).isEqualTo("""
        java.lang.RuntimeException: java.lang.IllegalStateException: boom
        second line
        \tat com.example.Framework.run(Framework.java:3)
        Caused by: java.lang.IllegalStateException (its message is in the one above)
        \tat com.example.Web.reconcile(Web.java:7)""");
  }

  @Test
  void should_give_suppressed_exceptions_indented_and_a_circular_cause_once() {
    // GIVEN
    IllegalStateException first = error(new IllegalStateException("first"), frame("a.B", "c", 1));
    IllegalArgumentException second = error(new IllegalArgumentException("second"), frame("d.E", "f", 2));
    first.addSuppressed(second);
    second.initCause(first);
    // WHEN
    String text = ThrowableText.full(first);
    // THEN
    assertThat(text).isEqualTo("""
        java.lang.IllegalStateException: first
        \tat a.B.c(B.java:1)
        \tSuppressed: java.lang.IllegalArgumentException: second
        \t\tat d.E.f(E.java:2)
        \tCaused by: [CIRCULAR REFERENCE: java.lang.IllegalStateException, printed above]""");
  }

  @Test
  void should_indent_every_line() {
    assertThat(ThrowableText.indent("a\n\tb\n", "  ")).isEqualTo("  a\n  \tb\n  ");
  }

  private static <T extends Throwable> T error(T error, StackTraceElement... frames) {
    error.setStackTrace(frames);
    return error;
  }

  private static StackTraceElement frame(String type, String method, int line) {
    String file = type.substring(type.lastIndexOf('.') + 1) + ".java";
    return new StackTraceElement(type, method, file, line);
  }
}
