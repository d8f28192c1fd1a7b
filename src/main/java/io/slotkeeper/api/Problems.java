package io.slotkeeper.api;

import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;

/**
 * Problems written by hand, where no Spring MVC handler answers: the error page of a
 * request rejected before it reached one (a method Tomcat refuses, a path the firewall
 * rejects, a header too large), as {@code about:blank} problems that say only what the
 * status says, never the request's own text.
 */
final class Problems {

	static final String MEDIA_TYPE = "application/problem+json";

	private static final JsonMapper json = JsonMapper.builder().build();

	private Problems() {
	}

	static String forStatus(int code) {
		HttpStatus status = HttpStatus.resolve(code);
		Map<String, Object> problem = new LinkedHashMap<>();
		problem.put("type", "about:blank");
		problem.put("title", (status != null) ? status.getReasonPhrase() : "Error");
		problem.put("status", code);
		problem.put("detail", detail(code));
		return json.writeValueAsString(problem);
	}

	private static String detail(int code) {
		return switch (code) {
			case 400 -> "The request was rejected before it reached the API: a malformed or unsafe path (encoded dots,"
					+ " control characters), or headers larger than the server accepts.";
			case 404 -> "No such resource.";
			case 405 -> "This method is not allowed here.";
			case 413, 431 -> "The request or its headers are larger than the server accepts.";
			default ->
				(code >= 500) ? "slot-keeper failed unexpectedly; its log has the cause." : "The request was rejected.";
		};
	}

}
