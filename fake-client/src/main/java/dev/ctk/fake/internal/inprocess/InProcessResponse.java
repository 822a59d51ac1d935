package dev.ctk.fake.internal.inprocess;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.StandardHttpHeaders;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The status line and headers of an in-process answer, with its body: a {@link CompleteBody}, or the
 * {@link StreamingWatchBody} of an HTTP-streaming watch.
 */
final class InProcessResponse extends StandardHttpHeaders implements HttpResponse<AsyncBody> {

  private final HttpRequest request;
  private final int code;
  private final AsyncBody body;

  InProcessResponse(HttpRequest request, int code, Map<String, List<String>> headers, AsyncBody body) {
    super(headers);
    this.request = request;
    this.code = code;
    this.body = body;
  }

  @Override
  public int code() {
    return code;
  }

  @Override
  public AsyncBody body() {
    return body;
  }

  @Override
  public HttpRequest request() {
    return request;
  }

  @Override
  public Optional<HttpResponse<?>> previousResponse() {
    return Optional.empty();
  }
}
