// Injected by page_check.py at the end of a copy of report.html: it measures what a person
// sees (the timeline's axis, legend, lanes and window, every text, each box's overflow) and
// writes it as JSON into <pre id=page-check-facts>, which --dump-dom hands back. The page's
// DOM as laid out is the witness, so page_check judges a rendering, not the HTML source.
(function () {
	var all = function (sel) { return Array.prototype.slice.call(document.querySelectorAll(sel)); };
	// a line's colour is its stroke; a bar's or a diamond's, its fill
	var colour = function (el) {
		var cs = getComputedStyle(el);
		return el.tagName.toLowerCase() === 'line' ? cs.stroke : cs.fill;
	};
	var facts = {};
	var axis = document.getElementById('axis');
	var line = axis && axis.querySelector('.axisline');
	facts.axis = axis ? {
		from: parseFloat(axis.getAttribute('data-from')),
		to: parseFloat(axis.getAttribute('data-to')),
		labels: all('#axis .ticklabel').map(function (t) { return t.textContent; }),
		left: line ? line.getBoundingClientRect().left : null,
		right: line ? line.getBoundingClientRect().right : null
	} : null;
	facts.marks = {};
	all('#timeline .mark').forEach(function (m) {
		facts.marks[colour(m)] = m.getAttribute('class');
	});
	facts.legend = all('#legend .key').map(function (k) {
		var m = k.querySelector('.mark');
		return { colour: m ? colour(m) : null, words: k.textContent.trim() };
	});
	facts.lanes = all('#timeline .lane').map(function (l) {
		var name = l.querySelector('.lanename');
		return { thread: l.getAttribute('data-thread'), other: l.getAttribute('data-other'),
			 name: name ? name.textContent : '' };
	});
	facts.windows = all('#timeline g.window').map(function (w) {
		var l = w.querySelector('line');
		return { ts: parseFloat(w.getAttribute('data-ts')),
			 x: l ? l.getBoundingClientRect().left : null };
	});
	// what a person reads: the page's text, the pictures' text and every hover's title
	facts.texts = [document.body.innerText].concat(
		all('svg text, title').map(function (t) { return t.textContent; }));
	facts.overflow = all('pre, p, h1, h2, h3, #legend, #commands').filter(function (e) {
		return e.scrollWidth > e.clientWidth + 1;
	}).map(function (e) {
		return (e.id ? '#' + e.id : e.tagName.toLowerCase() + (e.className ? '.' + e.className : '')) +
			' (' + e.scrollWidth + ' px of text in ' + e.clientWidth + ')';
	});
	facts.commands = !!document.getElementById('commands');
	var out = document.createElement('pre');
	out.id = 'page-check-facts';
	out.textContent = JSON.stringify(facts);
	document.body.appendChild(out);
})();
